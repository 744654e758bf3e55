// The learner's local copy for studying without a connection (IndexedDB): their stacks, every card
// with its schedule, the FSRS parameters and time zone, and the outbox of changes made offline
// (reviews and card edits) until the server has them. One database per signed-in user
// (`fc-offline-<user id>`), so another account on the same browser never sees it; signing out
// deletes it (docs/offline.md).

import { session } from '../api/client.js';

const VERSION = 1;
const PREFIX = 'fc-offline-';

/** Wraps an IDBRequest in a promise. */
const done = (request) => new Promise((resolve, reject) => {
  request.onsuccess = () => resolve(request.result);
  request.onerror = () => reject(request.error);
});

/** Resolves when a transaction has committed. */
const committed = (tx) => new Promise((resolve, reject) => {
  tx.oncomplete = () => resolve();
  tx.onerror = () => reject(tx.error);
  tx.onabort = () => reject(tx.error || new DOMException('aborted', 'AbortError'));
});

function openDatabase(name) {
  const request = indexedDB.open(name, VERSION);
  request.onupgradeneeded = () => {
    const db = request.result;
    db.createObjectStore('meta', { keyPath: 'key' });
    db.createObjectStore('stacks', { keyPath: 'id' });
    db.createObjectStore('cards', { keyPath: 'id' }).createIndex('stackId', 'stackId');
    db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
  };
  return done(request);
}

/** Tells the other tabs of this origin that a user's copy changed (they drop their caches). */
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel('fc-offline') : null;

/** One user's local copy. */
export class Store {
  /** Each stack's cards as last read, oldest first: an offline rating reads them all to find the
   * next card, and a large stack takes a while to read. Never mutated; replaced on changes. */
  #cards = new Map();
  #generation = 0;
  /** Write counter: which card was last written when (`mark`, `keepStack`), and the last write
   * that changed cards without naming them. */
  #writes = 0;
  #written = new Map();
  #wholesale = 0;

  constructor(db, userId) {
    this.db = db;
    this.userId = userId;
    // Another tab deleting the database (a sign-out there) closes this connection.
    db.onversionchange = () => { db.close(); if (opened?.userId === userId) opened = null; };
    channel?.addEventListener('message', (event) => { if (event.data === userId) this.#forgetCards(); });
  }

  #forgetCards() {
    this.#generation += 1;
    this.#cards.clear();
  }

  /** Puts changed cards into the cached lists (or drops the cache when a stack's list is new). */
  #keepCards(cards) {
    this.#generation += 1;
    for (const card of cards) {
      const list = this.#cards.get(card.stackId);
      if (!list) continue;
      if (list.some((c) => c.id === card.id)) this.#cards.set(card.stackId, list.map((c) => (c.id === card.id ? card : c)));
      else this.#cards.delete(card.stackId);
    }
  }

  async #read(name, run) {
    const tx = this.db.transaction(name, 'readonly');
    return done(run(tx.objectStore(name)));
  }

  /** Runs `body(tx)` in one read-write transaction over `names`; resolves with its result once
   * committed. `cards` (changed cards) keeps the cache; without it a write of cards drops it. */
  async write(names, body, cards = null) {
    const tx = this.db.transaction(names, 'readwrite');
    const result = await body(tx);
    await committed(tx);
    if (names.includes('cards')) {
      this.#writes += 1;
      if (cards) for (const card of cards) this.#written.set(card.id, this.#writes);
      else this.#wholesale = this.#writes;
      if (cards) this.#keepCards(cards); else this.#forgetCards();
      channel?.postMessage(this.userId);
    }
    return result;
  }

  /** A point in this tab's writes: `keepStack` leaves alone the cards written after it. */
  mark() { return this.#writes; }

  /**
   * Puts the stacks of a study session into the copy (their rows as the server sent them, the
   * order of the copy kept; a stack new here goes last), so it can go on offline.
   */
  keepStacks(rows) {
    return this.write(['stacks'], async (tx) => {
      const store = tx.objectStore('stacks');
      const stored = await done(store.getAll());
      let last = stored.reduce((max, row) => Math.max(max, row.order ?? 0), -1);
      for (const row of rows) {
        const old = stored.find((s) => s.id === row.id);
        const { dueCount, cardCount, reviewShare, ...kept } = row; // counts are computed here
        store.put({ ...old, ...kept, order: old ? old.order : (last += 1) });
      }
    });
  }

  /**
   * Replaces one stack's cards with the server's list `cards`, read since `mark`: cards with changes
   * in the outbox and cards this tab wrote after `mark` (a rating answered meanwhile) stay as they
   * are; cards the server no longer has go. Resolves false (nothing written) when the whole copy
   * was replaced after `mark`.
   */
  async keepStack(stackId, cards, mark) {
    if (this.#wholesale > mark) return false;
    const tx = this.db.transaction(['cards', 'outbox'], 'readwrite');
    const cardStore = tx.objectStore('cards');
    const keep = new Set((await done(tx.objectStore('outbox').getAll())).map((entry) => entry.cardId));
    for (const [id, at] of this.#written) if (at > mark) keep.add(id);
    const fresh = new Set(cards.map((card) => card.id));
    for (const card of cards) if (!keep.has(card.id)) cardStore.put(card);
    for (const old of await done(cardStore.index('stackId').getAllKeys(stackId))) {
      if (!fresh.has(old) && !keep.has(old)) cardStore.delete(old);
    }
    await committed(tx);
    this.#forgetCards();
    channel?.postMessage(this.userId);
    return true;
  }

  meta(key) { return this.#read('meta', (s) => s.get(key)).then((row) => row?.value ?? null); }

  setMeta(key, value) { return this.write(['meta'], (tx) => { tx.objectStore('meta').put({ key, value }); }); }

  stacks() {
    return this.#read('stacks', (s) => s.getAll()).then((list) => list.sort((a, b) => a.order - b.order));
  }

  stack(id) { return this.#read('stacks', (s) => s.get(id)); }

  card(id) { return this.#read('cards', (s) => s.get(id)); }

  /** The cards of a stack, oldest first (as the server lists them). The list is shared: do not change it. */
  async cards(stackId) {
    const cached = this.#cards.get(stackId);
    if (cached) return cached;
    const generation = this.#generation;
    const list = (await this.#read('cards', (s) => s.index('stackId').getAll(stackId)))
      .sort((a, b) => (a.number ?? Infinity) - (b.number ?? Infinity) || new Date(a.createdAt) - new Date(b.createdAt));
    if (generation === this.#generation) this.#cards.set(stackId, list);
    return list;
  }

  putCards(cards) {
    return this.write(['cards'], (tx) => { for (const card of cards) tx.objectStore('cards').put(card); }, cards);
  }

  deleteCards(ids) {
    return this.write(['cards'], (tx) => { for (const id of ids) tx.objectStore('cards').delete(id); });
  }

  /**
   * Replaces the local copy with the server's: `stacks` (in the server's order) and each stack's
   * `cards`. Cards with changes still in the outbox stay as they are here (read in the same
   * transaction, so a rating made meanwhile is never overwritten).
   */
  replaceAll(stacks, cardsByStack) {
    return this.write(['stacks', 'cards', 'outbox'], async (tx) => {
      const stackStore = tx.objectStore('stacks');
      const cardStore = tx.objectStore('cards');
      const keep = new Set((await done(tx.objectStore('outbox').getAll())).map((entry) => entry.cardId));
      const known = new Set(stacks.map((s) => s.id));
      for (const old of await done(stackStore.getAllKeys())) if (!known.has(old)) stackStore.delete(old);
      stacks.forEach((stack, order) => stackStore.put({ ...stack, order }));
      const fresh = new Set();
      for (const stack of stacks) {
        for (const card of cardsByStack.get(stack.id) || []) {
          fresh.add(card.id);
          if (!keep.has(card.id)) cardStore.put(card);
        }
      }
      for (const old of await done(cardStore.getAllKeys())) if (!fresh.has(old) && !keep.has(old)) cardStore.delete(old);
    });
  }

  // --- the outbox ---

  outbox() { return this.#read('outbox', (s) => s.getAll()); }

  pendingCount() { return this.#read('outbox', (s) => s.count()); }

  /** Adds an entry ({kind: 'review' | 'edit', …}) and, in the same transaction, the card it changed. */
  enqueue(entry, card) {
    return this.write(['outbox', 'cards'], (tx) => {
      tx.objectStore('outbox').put(entry);
      if (card) tx.objectStore('cards').put(card);
    }, card ? [card] : []);
  }

  /** Removes outbox entries by their `seq`. */
  dequeue(seqs) {
    return this.write(['outbox'], (tx) => { for (const seq of seqs) tx.objectStore('outbox').delete(seq); });
  }
}

let opened = null; // {userId, promise}

/** The signed-in user's store (opened once), or null when nobody is signed in or IndexedDB is missing. */
export function currentStore() {
  const userId = session.token() ? session.user()?.id : null;
  if (!userId || typeof indexedDB === 'undefined') return Promise.resolve(null);
  if (opened?.userId !== userId) {
    opened = { userId, promise: openDatabase(PREFIX + userId).then((db) => new Store(db, userId)) };
    opened.promise.catch(() => { if (opened?.userId === userId) opened = null; });
  }
  return opened.promise.catch(() => null);
}

/** Deletes a user's local copy (signing out, a deleted account). */
export async function dropUser(userId) {
  if (!userId || typeof indexedDB === 'undefined') return;
  if (opened?.userId === userId) {
    const store = await opened.promise.catch(() => null);
    store?.db.close();
    opened = null;
  }
  await done(indexedDB.deleteDatabase(PREFIX + userId)).catch(() => {});
}

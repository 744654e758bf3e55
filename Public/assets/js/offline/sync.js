// Keeps the local copy (store.js) in step with the server: `refresh` downloads the learner's
// stacks, cards, FSRS parameters, time zone and load-balancing settings; `flush` sends the outbox,
// reviews through `POST /api/v1/reviews` (batches of 1,000; the server merges them in any order
// and ignores a review id it has) and card edits through the card routes, last writer wins
// (docs/offline.md).
// Background work never ends the session on a 401 (`expire: false`): the learner's next own
// request does, and the outbox waits for the next sign-in.

import { api, enc, hasCode, request } from '../api/client.js';
import { currentStore } from './store.js';

const BATCH = 1000;
const PAGE = 200;
/** A refresh on the library or home waits this long after the last one. */
const REFRESH_EVERY = 2 * 60_000;
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** Background requests give up after a while (a connection that never answers is no connection). */
const QUIET = { expire: false, timeout: 15_000 };
/** A batch of up to 1,000 reviews is replayed on the server: it may take longer. */
const QUIET_BATCH = { expire: false, timeout: 60_000 };

/** Tells the page that the outbox or the local copy changed (the offline bar counts again). */
export function changed(detail = {}) {
  document.dispatchEvent(new CustomEvent('offline-change', { detail }));
}

/** Runs `body` while holding this user's sync lock, so two tabs never send the same outbox at once. */
function exclusive(store, body) {
  if (!navigator.locks) return body();
  return navigator.locks.request(`fc-offline-sync-${store.userId}`, body);
}

// --- the local copy ------------------------------------------------------------------------------

/** Every card of a stack, a page of 200 at a time. */
async function allCards(stackId) {
  const cards = [];
  for (let page = 1; ; page += 1) {
    const body = await api.cards(stackId, { page, perPage: PAGE }, QUIET);
    cards.push(...body.items);
    if (!body.items.length || page * PAGE >= body.total) return cards;
  }
}


/**
 * Downloads the learner's stacks and cards into the local copy, after sending the outbox (the
 * server's schedules then include every offline review). Skipped within two minutes of the last
 * refresh unless `force`. Resolves true when it refreshed.
 */
export function refresh(options) {
  refreshing ??= refreshNow(options).finally(() => { refreshing = null; });
  return refreshing;
}

let refreshing = null;

async function refreshNow({ force = false } = {}) {
  const store = await currentStore();
  if (!store) return false;
  if (!force && Date.now() - ((await store.meta('refreshedAt')) ?? 0) < REFRESH_EVERY) return false;
  if ((await store.pendingCount()) && !(await flush()).complete) return false;
  const [stacks, scheduler, me, settings] = await Promise.all([
    api.stacks(QUIET),
    request('GET', '/me/scheduler', undefined, QUIET).catch(() => null),
    request('GET', '/me', undefined, QUIET).catch(() => null),
    api.settings(QUIET).catch(() => null),
  ]);
  // Each card carries its `number` (the server seeds FSRS's fuzz and breaks queue ties with it).
  const byStack = new Map();
  for (const stack of stacks) byStack.set(stack.id, await allCards(stack.id));
  await store.replaceAll(stacks, byStack);
  if (scheduler) await store.setMeta('parameters', scheduler.parameters ?? null);
  if (me?.timeZone) await store.setMeta('timeZone', me.timeZone);
  // What offline ratings need of the learner's settings: load balancing and easy days.
  if (settings) await store.setMeta('learnerSettings', { loadBalancing: settings.loadBalancing, easyDays: settings.easyDays });
  await store.setMeta('refreshedAt', Date.now());
  changed({ refreshed: true });
  return true;
}

/**
 * Puts the stacks of a study session and every card of them into the local copy as the session
 * opens (a stack made or copied a moment ago is not in the last refresh), so the session can go on
 * from the copy when the connection drops. A stack the copy has with as many cards, refreshed
 * within two minutes, is taken as it is. Cards rated meanwhile keep their newer state. Never
 * rejects: the copy is a convenience.
 */
export async function keepForSession(stacks) {
  try {
    const store = await currentStore();
    if (!store || !stacks.length) return;
    const mark = store.mark();
    const fresh = Date.now() - ((await store.meta('refreshedAt')) ?? 0) < REFRESH_EVERY;
    const stored = new Map((await store.stacks()).map((s) => [s.id, s]));
    await store.keepStacks(stacks);
    if ((await store.meta('parameters')) === null && !(await store.meta('refreshedAt'))) {
      const scheduler = await request('GET', '/me/scheduler', undefined, QUIET).catch(() => null);
      if (scheduler?.parameters) await store.setMeta('parameters', scheduler.parameters);
    }
    for (const stack of stacks) {
      if (fresh && stored.has(stack.id) && (await store.cards(stack.id)).length === stack.cardCount) continue;
      if (!(await store.keepStack(stack.id, await allCards(stack.id), mark))) return;
    }
    changed({ kept: true });
  } catch {
    // Offline already, or the server busy: the session asks the server as long as it can.
  }
}

/** Keeps cards the server answered with (a rating, an edit, a sync) in the local copy. */
export async function remember(cards) {
  const store = await currentStore();
  if (!store || !cards.length) return;
  const local = await Promise.all(cards.map((card) => store.card(card.id)));
  // Only cards the local copy has (a new one waits for the next refresh, which finds its number).
  const kept = cards.map((card, i) => local[i] && { ...local[i], ...card, number: local[i].number }).filter(Boolean);
  if (kept.length) await store.putCards(kept);
}

/** Drops deleted cards from the local copy. */
export async function forget(cardIds) {
  const store = await currentStore();
  if (store) await store.deleteCards(cardIds);
}

// --- the outbox ----------------------------------------------------------------------------------

/** How many changes wait in the outbox. */
export async function pendingCount() {
  const store = await currentStore();
  return store ? store.pendingCount() : 0;
}

let running = null;

/**
 * Sends the outbox. Resolves with what happened: {complete, sent, edits, dropped: [reviews],
 * refused: [reviews], kept: [edits the server's later change won over], replaced: [edits that won],
 * gone: [edits of deleted cards], error}. `complete` is false when it stopped (offline, signed out,
 * the server busy); what was not sent stays in the outbox.
 */
export function flush() {
  if (!running) {
    running = (async () => {
      const store = await currentStore();
      if (!store) return { complete: true, sent: 0, edits: 0, dropped: [], refused: [], kept: [], replaced: [], gone: [] };
      return exclusive(store, () => flushNow(store));
    })().finally(() => { running = null; });
  }
  return running;
}

async function flushNow(store) {
  const result = { complete: false, sent: 0, edits: 0, dropped: [], refused: [], kept: [], replaced: [], gone: [], error: null };
  try {
    const entries = await store.outbox(); // read under the lock: another tab may have sent some
    // Reviews and undos in the order they were made (an undo takes back the card's last review on
    // the server, so the reviews before it go first), reviews in batches; card edits after them.
    let batch = [];
    const sendBatch = async () => {
      for (let i = 0; i < batch.length; i += BATCH) await sendReviews(store, batch.slice(i, i + BATCH), result);
      batch = [];
    };
    for (const entry of entries) {
      if (entry.kind === 'review') batch.push(entry);
      else if (entry.kind === 'undo') { await sendBatch(); await sendUndo(store, entry, result); }
    }
    await sendBatch();
    for (const edit of entries.filter((e) => e.kind === 'edit')) await sendEdit(store, edit, result);
    result.complete = true;
  } catch (error) {
    result.error = error;
  }
  changed({ sync: result });
  return result;
}

/** Errors after which sending again later may work: no connection, no session, a busy server. */
const transient = (error) => !error.status || error.status === 401 || error.status === 408
  || error.status === 429 || error.status >= 500;

const wire = (e) => ({
  id: e.id, cardId: e.cardId, rating: e.rating, reviewedAt: e.reviewedAt, mode: e.mode,
  ...(Number.isInteger(e.durationMs) ? { durationMs: e.durationMs } : {}),
  // The interval the offline load balancer chose: the server keeps it when its replay agrees.
  ...(Number.isInteger(e.balancedDays) ? { balancedDays: e.balancedDays } : {}),
});

async function sendReviews(store, batch, result) {
  try {
    const body = await request('POST', '/reviews', { reviews: batch.map(wire) }, QUIET_BATCH);
    await store.dequeue(batch.map((e) => e.seq));
    await remember(body.cards || []);
    result.sent += batch.length;
  } catch (error) {
    if (transient(error)) throw error;
    // The whole batch is refused when one of its cards is gone (404 naming them): those reviews are
    // dropped, the rest go again.
    if (error.status === 404 && hasCode(error, 'card_not_found')) {
      const gone = new Set((String(error.message).match(UUID) || []).map((id) => id.toLowerCase()));
      const lost = batch.filter((e) => gone.has(e.cardId.toLowerCase()));
      if (lost.length) {
        await store.dequeue(lost.map((e) => e.seq));
        await store.deleteCards([...new Set(lost.map((e) => e.cardId))]);
        result.dropped.push(...lost);
        const rest = batch.filter((e) => !lost.includes(e));
        if (rest.length) await sendReviews(store, rest, result);
        return;
      }
    }
    if (batch.length === 1) {
      // Refused for good (say, a moment the server cannot take): only this one is dropped.
      await store.dequeue([batch[0].seq]);
      (error.status === 404 ? result.dropped : result.refused).push(batch[0]);
      return;
    }
    for (const entry of batch) await sendReviews(store, [entry], result);
  }
}

/**
 * Sends an undo made offline (of a rating the server has, or may have): `undo` with the undo's own
 * id, so an undo that reached the server before the connection broke is not applied twice.
 */
async function sendUndo(store, entry, result) {
  try {
    const body = await api.undo(entry.stackId, entry.cardId, entry.id, QUIET, entry.undoes);
    await store.dequeue([entry.seq]);
    await remember(body?.card ? [body.card] : []);
    result.sent += 1;
  } catch (error) {
    if (transient(error)) throw error;
    // The card is gone (404), or the rating is no longer its last (409: rated since on another
    // device, or undone already): nothing to undo.
    await store.dequeue([entry.seq]);
    if (error.status === 404) await store.deleteCards([entry.cardId]);
  }
}

async function sendEdit(store, edit, result) {
  const path = `/stacks/${enc(edit.stackId)}/cards/${enc(edit.cardId)}`;
  const local = await store.card(edit.cardId);
  const drop = async (list, server) => {
    await store.dequeue([edit.seq]);
    list.push({ ...edit, server });
  };
  let server;
  try {
    server = await request('GET', path, undefined, QUIET);
  } catch (error) {
    if (transient(error)) throw error;
    await store.deleteCards([edit.cardId]);
    return drop(result.gone, null);
  }
  // Changed on the server since this edit's base version: the later change wins.
  const elsewhere = new Date(server.updatedAt).getTime() !== new Date(edit.baseUpdatedAt).getTime();
  if (elsewhere && new Date(server.updatedAt).getTime() > edit.editedAt) {
    if (local) await store.putCards([{ ...local, ...server, number: local.number }]);
    return drop(result.kept, server);
  }
  let saved;
  try {
    saved = await request('PATCH', path, edit.changes, QUIET);
  } catch (error) {
    if (transient(error)) throw error;
    if (error.status === 404) await store.deleteCards([edit.cardId]);
    else if (local) await store.putCards([{ ...local, ...server, number: local.number }]);
    return drop(error.status === 404 ? result.gone : result.refused, server);
  }
  await store.dequeue([edit.seq]);
  if (local) await store.putCards([{ ...local, ...saved, number: local.number }]);
  result.edits += 1;
  if (elsewhere) result.replaced.push({ ...edit, server });
}

// One study session across the modes that rate (flashcards, quiz, write, feed): which stacks it
// covers (one, or every stack of the learner), how many cards it may take, what was studied, how
// often the learner was right, and how long it took. The views render; this module counts and
// talks to the API. As it opens, the session puts its stacks and all their cards into the local
// copy. When the server cannot be reached (the browser is offline, a request fails with a network
// error or gets no answer within STUDY_TIMEOUT_MS), the session goes on from the local copy
// (offline/local-study.js: the same rules in the browser, ratings and undos into the outbox, each
// with its id, so one that reached the server anyway is not counted twice) until the outbox is sent.

import { api, STUDY_TIMEOUT_MS } from './api/client.js';

let local = null;
/** The offline counterpart of the study routes: loaded as a session opens, so it is there when the
 * connection drops (a failed load is tried again next time). */
const localStudy = () => (local ??= import('./offline/local-study.js').catch((error) => {
  local = null;
  throw error;
}));

/** Whether an error means the server could not be reached (not an answer of it): no connection,
 * no answer in time, or a gateway saying the server is away. */
const unreachable = (error) => (error?.status === 0 && error.name !== 'AbortError')
  || [502, 503, 504].includes(error?.status);

const QUICK = { timeout: STUDY_TIMEOUT_MS };

/** `promise`, or `fallback` when it has not settled within `ms`. */
const within = (promise, ms, fallback) => Promise.race([
  promise, new Promise((resolve) => { setTimeout(() => resolve(fallback), ms); }),
]);

/** How long the first card waits for the session's cards to reach the local copy. */
const KEEP_WAIT_MS = 3000;

/** When the server was last known to be reachable again: the browser came online, or the outbox
 * was sent. An offline session with nothing waiting asks the server again after that. */
let reachedAt = 0;
addEventListener('online', () => { reachedAt = Date.now(); });
document.addEventListener('offline-change', (event) => {
  if (event.detail?.sync?.complete) reachedAt = Date.now();
});

const online = () => navigator.onLine !== false;

/** Asks the server (`remote`), or the local copy (`offline(module)`) when it cannot be reached. */
async function either(remote, offline) {
  if (online()) {
    try {
      return await remote();
    } catch (error) {
      if (!unreachable(error)) throw error;
    }
  }
  return offline(await localStudy());
}

/** How long an offline session waits before it tries the server again. */
const RETRY_MS = 20_000;

/** Session sizes offered before a session; `0` means every due card. */
export const SESSION_SIZES = [10, 20, 0];

/** Anki's default: an answer time above one minute is counted as one minute. */
const MAX_ANSWER_MS = 60_000;

const PREFS = 'fc.study';

/** The mode and size the learner chose last time (the setup page starts from them). */
export function studyPrefs() {
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS)) || {};
    return { mode: saved.mode || 'flashcards', size: Number.isInteger(saved.size) ? saved.size : 0 };
  } catch {
    return { mode: 'flashcards', size: 0 };
  }
}

/** Remembers the learner's choice of mode and size. */
export function saveStudyPrefs(prefs) {
  localStorage.setItem(PREFS, JSON.stringify({ ...studyPrefs(), ...prefs }));
}

/** The session size from a `size` query value: a positive whole number, or 0 for all due. */
export function sizeFromQuery(value) {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 && n <= 9999 ? n : 0;
}

/** A random UUID, also outside secure contexts (LAN access over plain HTTP). */
function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The rating key that means "I knew it" in a stack's scheduler (FSRS Good, ladder Einfach). */
export const knewItRating = (stack) => (stack.scheduler === 'ladder' ? 'easy' : 'good');

/** Whether a rating key counts as recalled (anything but FSRS Again and ladder Schwer). */
const recalled = (stack, rating) => rating !== (stack.scheduler === 'ladder' ? 'hard' : 'again');

export class StudySession {
  /**
   * @param {object[]} stacks the stacks the session covers, in order (one for a stack's session)
   * @param {{mode: string, size: number}} options `size` 0 = every due card
   */
  constructor(stacks, { mode = 'flashcards', size = 0 } = {}) {
    this.stacks = stacks;
    this.mode = mode;
    this.size = size;
    this.baseSize = size;
    this.daysAhead = 0;
    this.index = 0; // the stack being studied
    this.item = null; // {stack, state}: the study/next (or quiz) answer being shown
    this.reviews = 0;
    this.recalled = 0;
    this.timeMs = 0;
    this.perCard = new Map(); // card id → reviews in this session
    this.history = []; // rated reviews, last last: {stackIndex, cardId, recalled, ms}
    this.nextDueAt = null;
    this.leftover = 0; // due cards left in the current stack when the size ended the session
    this.shownAt = performance.now();
    this.offline = !online(); // answers come from the local copy
    this.triedAt = 0;
    this.synced = false;
    this.kept = null; // the session's cards going into the local copy
    this.keptWaited = false;
    this.failedAt = 0; // when the server was last out of reach
    this.keeping = Promise.resolve(); // cards the server answered with, on their way into the copy
  }

  /** Whether the session covers every stack of the learner. */
  get allStacks() { return this.stacks.length !== 1; }

  /** Distinct cards studied. */
  get cards() { return this.perCard.size; }

  /** Whether the chosen size is reached. */
  get full() { return this.size > 0 && this.reviews >= this.size; }

  /** Cards due in this stack and the stacks after it (the server's counts; learning cards that come
   * back later in the session raise it). */
  get dueLeft() {
    const current = this.item ? this.item.state.dueCount : this.leftover;
    const later = this.stacks.slice(this.index + 1).reduce((sum, s) => sum + (s.dueCount || 0), 0);
    return current + later;
  }

  /** The session's planned length: the chosen size, or every due card; never below what was done. */
  get total() {
    const planned = this.reviews + this.dueLeft;
    return this.size > 0 ? Math.min(this.size, planned) : planned;
  }

  /** Share of reviews recalled, 0…1, or null before the first review. */
  get accuracy() { return this.reviews ? this.recalled / this.reviews : null; }

  /** The card on screen, or null when nothing is left. */
  get card() { return this.item?.state.card ?? null; }

  /** The stack of the card on screen. */
  get stack() { return this.item?.stack ?? this.stacks[this.index]; }

  /** Loads what comes next: the current stack's next card, else the next stack's. Resolves with
   * the item, or null when every stack is done (or the session is full). */
  async load() {
    if (this.full) { this.item = null; return null; }
    while (this.index < this.stacks.length) {
      const stack = this.stacks[this.index];
      const state = await this.#ask(
        () => (this.mode === 'quiz' ? api.quiz(stack.id, this.daysAhead) : api.studyNext(stack.id, this.daysAhead)),
        (l) => (this.mode === 'quiz' ? l.quiz(stack.id, this.daysAhead) : l.next(stack.id, this.daysAhead)));
      this.#noteNextDue(state.nextDueAt);
      if (state.card) return this.#show({ stack, state });
      this.index += 1;
    }
    this.item = null;
    return null;
  }

  /** Takes a study/next answer that came with a rating (saves a request); moves on when the stack is
   * done. Quiz sessions load their question instead. */
  async advance(next) {
    if (this.full) {
      // Done by size: keep what is still due in this stack for the summary's "go on" offer.
      this.leftover = next ? next.dueCount : this.item?.state.dueCount ?? 0;
      this.item = null;
      return null;
    }
    if (this.mode === 'quiz' || !next || !next.card) {
      if (next) this.#noteNextDue(next.nextDueAt);
      if (!this.full && next && !next.card) this.index += 1;
      return this.load();
    }
    this.#noteNextDue(next.nextDueAt);
    return this.#show({ stack: this.stack, state: next });
  }

  /** Starts over with learn-ahead days (after the last due card). */
  async learnAhead(days) {
    this.daysAhead = days;
    this.index = 0;
    this.nextDueAt = null;
    if (this.full) this.size = this.reviews + this.baseSize;
    this.leftover = 0;
    return this.load();
  }

  /** Goes on for another round of the chosen size (when the size was reached and cards are due). */
  async more() {
    this.size = this.reviews + this.baseSize;
    this.leftover = 0;
    return this.load();
  }

  /** Sends the rating of the card on screen; resolves with the rate answer. */
  rate(rating) {
    return this.rateCard(this.item.stack, this.item.state.card, rating);
  }

  /** Sends a rating of `card` (of `stack`), timed from when it was shown; resolves with the rate
   * answer. The feed rates the card it shows this way. */
  async rateCard(stack, card, rating) {
    const ms = Math.min(Math.max(0, Math.round(performance.now() - this.shownAt)), MAX_ANSWER_MS);
    const extra = { daysAhead: this.daysAhead, reviewId: uuid(), durationMs: ms, mode: this.mode };
    // The same review id either way: a rating that reached the server before the connection broke
    // is not counted twice when the outbox is sent. One sent without an answer is `uncertain`.
    let sent = false;
    let offline = false;
    const result = await this.#ask(
      () => { sent = true; return api.rate(stack.id, card.id, rating, extra); },
      (l) => { offline = true; return l.rate(stack.id, card.id, rating, { ...extra, known: card, uncertain: sent }); });
    if (!offline) this.#keepLocally([result.card]);
    const ok = recalled(stack, rating);
    this.reviews += 1;
    this.recalled += ok ? 1 : 0;
    this.timeMs += ms;
    this.perCard.set(card.id, (this.perCard.get(card.id) || 0) + 1);
    this.history.push({
      stackIndex: this.stacks.indexOf(stack), cardId: card.id, recalled: ok, ms, reviewId: extra.reviewId,
      offline, uncertain: offline && sent, before: card, undoId: null,
    });
    return result;
  }

  /** The Write mode's check of a typed answer against the card on screen. */
  check(typed, ignoreDiacritics) {
    const { stack, card } = this;
    return this.#ask(
      () => api.checkAnswer(stack.id, card.id, typed, ignoreDiacritics),
      (l) => l.check(stack.id, card.id, typed, ignoreDiacritics, card));
  }

  /** A page of a stack's cards (the feed walks them). */
  cardsPage(stack, options) {
    return this.#ask(() => api.cards(stack.id, options, QUICK), (l) => l.cards(stack.id, options));
  }

  /**
   * Asks the server, or the local copy when it cannot be reached; then the session stays offline
   * until the outbox is empty again (sent in the background every 20 s while the browser says it is
   * online, and by the offline bar when the connection is back): never waiting for the server
   * longer than STUDY_TIMEOUT_MS. Before its first question to the server, the outbox of an
   * earlier offline session goes first, so the server knows those ratings; and the session's
   * stacks with all their cards go into the local copy (the first card waits for that a moment).
   */
  async #ask(remote, offline) {
    if (online()) {
      if (!this.synced) {
        this.synced = true;
        this.triedAt = Date.now();
        this.offline = !(await within(sendOutbox(), STUDY_TIMEOUT_MS, false));
        localStudy().catch(() => {}); // loaded now, while there is a connection
        bar();
        if (!this.offline) this.kept = keepForSession(this.stacks);
      } else if (this.offline) {
        const back = reachedAt > this.failedAt || Date.now() - this.failedAt > RETRY_MS;
        if (back && (await nothingWaits())) this.offline = false;
        else if (Date.now() - this.triedAt > RETRY_MS) {
          this.triedAt = Date.now();
          sendOutbox().then((sent) => { if (sent) this.offline = false; });
        }
      }
    }
    if (!this.offline && online()) {
      try {
        const answer = await remote();
        if (this.kept && !this.keptWaited) {
          this.keptWaited = true;
          await within(this.kept, KEEP_WAIT_MS);
        }
        return answer;
      } catch (error) {
        if (!unreachable(error)) throw error;
      }
    }
    this.#goOffline();
    await this.keeping;
    return offline(await localStudy());
  }

  /** Keeps cards the server answered with in the local copy, off the way to the next card (the
   * local answers wait for it). */
  #keepLocally(cards) {
    this.keeping = this.keeping.then(() => keepLocally(cards));
  }

  #goOffline() {
    this.offline = true;
    this.failedAt = Date.now();
    bar();
  }

  /** Restarts the answer clock (a new card is on screen). */
  shown() { this.shownAt = performance.now(); }

  /** Whether there is a rating of this session to take back. */
  get canUndo() { return this.history.length > 0; }

  /** Takes back the session's last rating and shows that stack's next card (usually the same card
   * again). Resolves with the item. A rating still in the outbox is simply taken out of it; one the
   * server has (or may have: sent without an answer) is undone through the server, or, when it
   * cannot be reached, here and through the outbox (the undo's id keeps a repeat harmless). */
  async undo() {
    const last = this.history[this.history.length - 1];
    if (!last) return this.item;
    const stackId = this.stacks[last.stackIndex].id;
    const l = await localStudy().catch(() => null);
    await this.keeping;
    const queued = l ? await l.pending(last.reviewId) : false;
    if (queued && !last.uncertain) {
      await l.undo(last.reviewId); // still in the outbox: the server never has to know
    } else {
      last.undoId ??= uuid();
      let done = false;
      if (!queued && !this.offline && online()) {
        try {
          const undone = await api.undo(stackId, last.cardId, last.undoId, undefined, last.reviewId);
          this.#keepLocally([undone.card]);
          done = true;
        } catch (error) {
          if (!unreachable(error) || !l) throw error;
        }
      }
      if (!done) {
        if (!l) throw new Error('offline');
        await this.keeping;
        await l.undoLater(stackId, last.cardId, { undoId: last.undoId, reviewId: last.reviewId, before: last.before });
        this.#goOffline();
      }
    }
    this.history.pop();
    this.reviews -= 1;
    this.recalled -= last.recalled ? 1 : 0;
    this.timeMs -= last.ms;
    const left = (this.perCard.get(last.cardId) || 1) - 1;
    if (left > 0) this.perCard.set(last.cardId, left); else this.perCard.delete(last.cardId);
    this.index = last.stackIndex;
    return this.load();
  }

  #show(item) {
    this.item = item;
    this.shownAt = performance.now();
    return item;
  }

  #noteNextDue(at) {
    if (at && (!this.nextDueAt || at < this.nextDueAt)) this.nextDueAt = at;
  }
}

/** Sends the outbox of offline ratings if there is one; resolves true when nothing waits. */
async function sendOutbox() {
  try {
    const sync = await import('./offline/sync.js');
    if (await nothingWaits()) return true;
    return (await sync.flush()).complete && (await nothingWaits());
  } catch {
    return false;
  }
}

/** Whether the outbox is empty (it was sent meanwhile: the server knows every rating); false when
 * that cannot be read. */
async function nothingWaits() {
  try {
    return (await (await import('./offline/sync.js')).pendingCount()) === 0;
  } catch {
    return false;
  }
}

/** Puts the session's stacks and their cards into the local copy (see sync.js). */
async function keepForSession(stacks) {
  try {
    await (await import('./offline/sync.js')).keepForSession(stacks);
  } catch {
    // Without the copy the session still runs online.
  }
}

/** The offline bar (it says so when the session goes on offline). */
function bar() {
  import('./offline/status.js').then((m) => m.start()).catch(() => {});
}

/** Keeps cards the server answered with in the local copy (an offline session starts from them). */
async function keepLocally(cards) {
  try {
    await (await import('./offline/sync.js')).remember(cards.filter(Boolean));
  } catch {
    // The local copy is a convenience: online study never fails for it.
  }
}

/** The stacks a session covers: the one of `stackId`, or every stack with cards (due ones first). */
export async function sessionStacks(stackId) {
  const from = async (source) => {
    if (stackId) return [await source.stack(stackId, QUICK)];
    const stacks = await source.stacks(QUICK);
    return stacks.filter((s) => s.cardCount > 0).sort((a, b) => (b.dueCount > 0) - (a.dueCount > 0));
  };
  return either(() => from(api), from);
}

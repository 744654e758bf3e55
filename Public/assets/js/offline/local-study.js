// Studying from the local copy when the server cannot be reached: the answers of the study routes
// (`study/next`, `study/quiz`, `study/check`, `study/rate`, `undo`, the stacks and a stack's cards)
// computed in the browser with the server's rules (scheduler.js, answers.js). Every rating updates
// the card's schedule here (an FSRS review day placed by the load balancer when the learner's
// settings have it on) and goes into the outbox with its id, moment and balanced interval; sync.js
// sends it later.
// `StudySession` (study-session.js) and the card form call these when the network is gone.

import { ApiError, session } from '../api/client.js';
import { settingsNow } from '../account.js';
import { answerWords, expectedAnswer } from '../rich-text.js';
import { CardScheduler, dayLoad, fuzzSeed, precedes } from './scheduler.js';
import { checkAnswer, ownChoicesQuestion, quizQuestion, trueFalseQuestion } from './answers.js';
import { cardSides } from './sides.js';
import { currentStore } from './store.js';
import { changed } from './sync.js';

/** Nothing is stored for this user (yet): the screens say so instead of an error. */
export const NOTHING_STORED = 'offline_empty';

async function store() {
  const found = await currentStore();
  if (!found) throw new ApiError(0, NOTHING_STORED, 'offline');
  return found;
}

/** The scheduler of a stored stack, with the stored FSRS parameters and time zone. */
async function schedulerOf(local, stack) {
  const [parameters, zone] = await Promise.all([local.meta('parameters'), local.meta('timeZone')]);
  return new CardScheduler(stack, { parameters, zone: zone || session.user()?.timeZone || 'UTC' });
}

/**
 * The learner's load balancing and easy days (`GET /me/settings`): the settings in memory when they
 * name them, else those the last refresh kept, else on with every day normal (the server's default).
 */
async function balancing(local) {
  const live = settingsNow();
  const named = (settings) => settings && ('loadBalancing' in settings || 'easyDays' in settings);
  const settings = named(live) ? live : ((await local.meta('learnerSettings')) ?? {});
  return { on: settings.loadBalancing !== false, easyDays: Array.isArray(settings.easyDays) ? settings.easyDays : null };
}

/**
 * What the load balancer knows of the days ahead when `card` is rated at `now`: every stored card
 * of the learner's stacks (the due counts, the note's other cards); null when it is off.
 */
async function loadFor(local, scheduler, card, now) {
  if (scheduler.kind !== 'fsrs') return null;
  const { on, easyDays } = await balancing(local);
  if (!on) return null;
  // Every stored stack's review cards count, ladder ones too (the server counts them alike).
  const stacks = await local.stacks();
  const cards = (await Promise.all(stacks.map((s) => local.cards(s.id)))).flat();
  return dayLoad(cards, card, now, { zone: scheduler.zone, easyDays });
}

async function stackOrFail(local, stackId) {
  const stack = await local.stack(stackId);
  if (!stack) throw new ApiError(0, NOTHING_STORED, 'offline');
  return stack;
}

/** A stored stack with its card count and due count as now. */
async function withCounts(local, stack, now = Date.now()) {
  const cards = await local.cards(stack.id);
  const scheduler = await schedulerOf(local, stack);
  return {
    ...stack,
    cardCount: cards.length,
    dueCount: scheduler.dueCount(cards, now),
    reviewShare: cards.length ? cards.filter((c) => c.state === 'review').length / cards.length : 0,
  };
}

/** Every stored stack (the server's order), with counts. Rejects when nothing is stored. */
export async function stacks() {
  const local = await store();
  const list = await local.stacks();
  if (!list.length && !(await local.meta('refreshedAt'))) throw new ApiError(0, NOTHING_STORED, 'offline');
  return Promise.all(list.map((stack) => withCounts(local, stack)));
}

/** One stored stack with counts. */
export async function stack(stackId) {
  const local = await store();
  return withCounts(local, await stackOrFail(local, stackId));
}

/** A stored card. */
export async function card(stackId, cardId) {
  const found = await (await store()).card(cardId);
  if (!found || found.stackId !== stackId) throw new ApiError(0, NOTHING_STORED, 'offline');
  return found;
}

/** A card as the study routes show it: no hint when the stack's hints are off. */
const shown = (stackRow, c) => (stackRow.hintsEnabled === false ? { ...c, hint: null } : c);

/** What `study/next` would answer now. */
export async function next(stackId, daysAhead = 0, now = Date.now()) {
  const local = await store();
  const stackRow = await stackOrFail(local, stackId);
  const scheduler = await schedulerOf(local, stackRow);
  const cards = await local.cards(stackId);
  const picked = scheduler.select(cards, now, daysAhead);
  // The buttons name the days rating gives: balanced by the stored load when it is on.
  const load = picked.card ? await loadFor(local, scheduler, picked.card, now) : null;
  return {
    card: picked.card ? shown(stackRow, picked.card) : null,
    options: picked.card ? scheduler.options(picked.card, now, picked.card.number ?? 0, load) : [],
    dueCount: picked.dueCount,
    nextDueAt: picked.nextDueAt,
  };
}

/** What `study/quiz` would answer now: the next card's answer among answers of cards due near it. */
export async function quiz(stackId, daysAhead = 0) {
  const state = await next(stackId, daysAhead);
  const local = await store();
  const stackRow = await local.stack(stackId);
  const ladder = stackRow.scheduler === 'ladder';
  const answer = { ratingIfRight: ladder ? 'easy' : 'good', ratingIfWrong: ladder ? 'hard' : 'again' };
  if (!state.card) return { card: null, choices: [], correctIndex: null, fewerChoices: false, ...answer, dueCount: state.dueCount, nextDueAt: state.nextDueAt };
  const asked = state.card;
  // As the server: 24 cards due at or after it and 24 at or before it (by due time, then id).
  const others = (await local.cards(stackId)).filter((c) => c.id !== asked.id).sort(precedes);
  const due = new Date(asked.dueAt).getTime();
  const after = others.filter((c) => new Date(c.dueAt).getTime() >= due).slice(0, 24);
  const before = others.filter((c) => new Date(c.dueAt).getTime() <= due).reverse().slice(0, 24);
  // As the server: a true/false card's answer and a cloze's extra notes are no answers to choose.
  const candidates = [...before, ...after].filter((c) => c.kind !== 'trueFalse' && c.kind !== 'cloze')
    // A rich card's answer as its words, as the server offers it (images left out), and its HTML.
    .map((c) => (c.format === 'markdown'
      ? { number: c.number ?? 0, answer: answerWords(c), rendered: c.rendered?.answer ?? null }
      : { number: c.number ?? 0, answer: c.answer }));
  const seed = fuzzSeed(asked.number ?? 0, asked.reviewCount ?? 0);
  const expected = expectedAnswer(asked);
  const question = asked.kind === 'trueFalse'
    ? trueFalseQuestion(asked.answer === 'true')
    : asked.kind === 'multipleChoice'
      ? ownChoicesQuestion(expected, asked.choices ?? [], seed)
      : quizQuestion(expected, candidates, seed);
  return {
    card: asked, choices: question.choices, correctIndex: question.correctIndex,
    fewerChoices: question.choices.length < 4, ...answer, dueCount: state.dueCount, nextDueAt: state.nextDueAt,
    // A rich multiple-choice card's own options need the server to render them: as written here.
    renderedChoices: question.renderedChoices ?? question.choices.map(() => null),
  };
}

/** A stored card, or `known` (the card the session shows, as the server sent it) when the copy
 * does not have it (yet): the card on screen can always be answered. */
async function cardOr(stackId, cardId, known) {
  try {
    return await card(stackId, cardId);
  } catch (error) {
    if (known?.id === cardId) return known;
    throw error;
  }
}

/** What `study/check` would answer: the verdict of a typed answer and its diff. */
export async function check(stackId, cardId, typed, ignoreDiacritics, known = null) {
  const local = await store();
  const stackRow = await stackOrFail(local, stackId);
  const found = await cardOr(stackId, cardId, known);
  const expected = expectedAnswer(found);
  const result = checkAnswer(typed, expected, ignoreDiacritics);
  const keys = stackRow.scheduler === 'ladder'
    ? { correct: 'easy', close: 'medium', wrong: 'hard' } : { correct: 'good', close: 'hard', wrong: 'again' };
  return { verdict: result.verdict, expected, diff: result.diff, rating: keys[result.verdict], ratingIfRight: keys.correct };
}

/**
 * Rates a card here: its schedule as the server will compute it, the review into the outbox with its
 * id and moment. Resolves like `study/rate`: {card, next}. `known`: the card as the session shows
 * it, used when the copy lacks it. `uncertain`: the rating was sent to the server and the answer
 * never came, so the server may have it (the same id makes it a duplicate there).
 */
export async function rate(stackId, cardId, rating, {
  daysAhead = 0, reviewId, durationMs, mode = 'flashcards', known = null, uncertain = false,
} = {}) {
  const local = await store();
  const stackRow = await stackOrFail(local, stackId);
  const scheduler = await schedulerOf(local, stackRow);
  if (!scheduler.ratings.includes(rating)) throw new ApiError(409, 'rating_not_for_scheduler', rating);
  const before = await cardOr(stackId, cardId, known);
  const now = Date.now();
  const load = await loadFor(local, scheduler, before, now);
  const { card: after, balancedDays } = scheduler.rate(before, rating, now, before.number ?? 0, load);
  const entry = {
    kind: 'review', id: reviewId || crypto.randomUUID(), cardId, stackId, rating, reviewedAt: new Date(now).toISOString(), mode,
    ...(Number.isInteger(durationMs) ? { durationMs } : {}), ...(uncertain ? { uncertain: true } : {}),
    ...(Number.isInteger(balancedDays) ? { balancedDays } : {}), before,
  };
  await local.enqueue(entry, after);
  changed({ review: entry });
  return { card: shown(stackRow, after), next: await next(stackId, daysAhead, now) };
}

/** Whether the review `reviewId` is still in the outbox (an offline rating not yet sent). */
export async function pending(reviewId) {
  const local = await currentStore();
  return Boolean(local && (await local.outbox()).some((e) => e.kind === 'review' && e.id === reviewId));
}

/** Takes back an offline rating still in the outbox: the card's schedule as it was before. */
export async function undo(reviewId) {
  const local = await store();
  const entry = (await local.outbox()).find((e) => e.kind === 'review' && e.id === reviewId);
  if (!entry) throw new ApiError(0, 'network', 'offline');
  await local.write(['outbox', 'cards'], (tx) => {
    tx.objectStore('outbox').delete(entry.seq);
    tx.objectStore('cards').put(entry.before);
  }, [entry.before]);
  changed({ undo: entry });
  return { card: entry.before };
}

/** The fields of a card that make its schedule. */
const SCHEDULE = ['state', 'step', 'stability', 'difficulty', 'dueAt', 'level', 'reviewCount', 'firstReviewedAt', 'lastReviewedAt'];

/**
 * Takes back, without a connection, a rating the server has (or may have): the card gets its
 * schedule from before the rating (`before`, the card as the session showed it) here, and the undo
 * waits in the outbox with its id `undoId` behind the reviews made before it (sync.js sends it
 * through the undo route, where a repeated id changes nothing).
 */
export async function undoLater(stackId, cardId, { undoId, reviewId, before }) {
  const local = await store();
  const stored = (await local.card(cardId)) ?? before;
  const restored = { ...stored };
  for (const key of SCHEDULE) restored[key] = before[key] ?? null;
  const entry = { kind: 'undo', id: undoId, cardId, stackId, undoes: reviewId, madeAt: new Date().toISOString(), before: stored };
  await local.enqueue(entry, restored);
  changed({ queued: entry });
  return { card: restored };
}

/** A page of a stack's stored cards, as `GET …/cards` (oldest first). */
export async function cards(stackId, { page = 1, perPage = 50 } = {}) {
  const local = await store();
  await stackOrFail(local, stackId);
  const all = await local.cards(stackId);
  return { items: all.slice((page - 1) * perPage, page * perPage), page, perPage, total: all.length };
}

/**
 * Keeps a card edit made offline: the card's texts change here, and the edit waits in the outbox
 * with the version it was made on (`updatedAt`) and its moment; several edits of one card become
 * one. Resolves with the card as stored here.
 */
export async function editCard(stackId, cardId, changes) {
  const local = await store();
  const base = await card(stackId, cardId);
  const edited = { ...base, ...changes };
  if ('hint' in changes) edited.hint = changes.hint || null;
  edited.rendered = null; // a rich card shows its source until the server renders it again
  edited.shown = cardSides(edited); // a cloze its gap hidden, as the server will show it
  const earlier = (await local.outbox()).find((e) => e.kind === 'edit' && e.cardId === cardId);
  const entry = earlier
    ? { ...earlier, changes: { ...earlier.changes, ...changes }, editedAt: Date.now() }
    : { kind: 'edit', id: crypto.randomUUID?.() ?? String(Date.now()), cardId, stackId, changes, baseUpdatedAt: base.updatedAt, editedAt: Date.now() };
  await local.enqueue(entry, edited);
  changed({ edit: entry });
  return edited;
}

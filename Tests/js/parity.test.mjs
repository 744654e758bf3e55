// The browser's port of Core (Public/assets/js/offline/scheduler.js, answers.js, sides.js) against
// the vectors Core's own tests read (Tests/FlashcardsCoreTests/Fixtures/*.json): one set of cases,
// two implementations. Run with `node --test Tests/js/` (scripts/test does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as S from '../../Public/assets/js/offline/scheduler.js';
import * as A from '../../Public/assets/js/offline/answers.js';
import { cardSides, clozeGaps } from '../../Public/assets/js/offline/sides.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', 'FlashcardsCoreTests', 'Fixtures');
const load = (name) => JSON.parse(readFileSync(join(fixtures, name), 'utf8'));
const ms = (text) => {
  // ISO-8601 with up to microseconds; the port works in milliseconds (the API's precision).
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/.exec(text);
  const fraction = match[2] ? Number(`0.${match[2]}`) : 0;
  return Date.parse(`${match[1]}${match[3]}`) + fraction * 1000;
};
const relative = (a, b) => Math.abs(a - b) / Math.max(Math.abs(b), 1e-12);
const RATING_KEYS = { 1: 'again', 2: 'hard', 3: 'good', 4: 'easy' };

test('FSRS golden vectors (py-fsrs, fsrs-rs): every sequence replays', () => {
  const { sequences } = load('fsrs-golden.json');
  assert.ok(sequences.length >= 30);
  for (const sequence of sequences) {
    const { config } = sequence;
    const fsrs = new S.FSRS({
      parameters: config.parameters, desiredRetention: config.desired_retention, learningSteps: config.learning_steps,
      relearningSteps: config.relearning_steps, maximumInterval: config.maximum_interval, fuzz: false, dayCounting: '24h',
    });
    let card = null;
    let beyondCap = false;
    sequence.reviews.forEach((review, index) => {
      const label = `${sequence.name} review ${index}`;
      const now = ms(review.time);
      card = fsrs.review(card ?? { state: 'learning', step: 0, stability: null, difficulty: null, due: now, lastReview: null }, RATING_KEYS[review.rating], now, 0n);
      if (review.stability > 36_500) beyondCap = true;
      assert.equal(card.state, review.state, `${label}: state`);
      assert.equal(card.step ?? null, review.step ?? null, `${label}: step`);
      assert.equal(card.due, Math.round(ms(review.due)), `${label}: due`);
      const reference = beyondCap ? review.rs_stability : review.stability;
      assert.ok(relative(card.stability, reference) <= (beyondCap ? 5e-5 : 1e-6), `${label}: S ${card.stability} vs ${reference}`);
      assert.ok(relative(card.difficulty, review.difficulty) <= 1e-6, `${label}: D ${card.difficulty} vs ${review.difficulty}`);
    });
  }
});

test('fuzz: ranges, unit fractions and seeds', () => {
  const { ranges, unitFractions, fuzzSeeds } = load('fuzz.json');
  for (const { interval, minimum, maximum, fractions, days } of ranges) {
    assert.deepEqual(fractions.map((f) => S.fuzzedInterval(interval, minimum, maximum, f)), days, `${interval} in ${minimum}…${maximum}`);
  }
  for (const { seed, fraction } of unitFractions) assert.equal(S.unitFraction(BigInt(seed)), fraction, `seed ${seed}`);
  for (const { cardID, reviewCount, seed } of fuzzSeeds) assert.equal(S.fuzzSeed(cardID, reviewCount).toString(), seed);
});

test('FSRS with fuzz and the learner day in a time zone (the app\'s configuration)', () => {
  const { sequences } = load('fsrs-fuzzed.json');
  for (const sequence of sequences) {
    const fsrs = new S.FSRS({ ...sequence, zone: sequence.zone });
    let card = null;
    sequence.reviews.forEach((review, index) => {
      const label = `${sequence.name} review ${index}`;
      const now = ms(review.time);
      card = fsrs.review(card ?? { state: 'learning', step: 0, stability: null, difficulty: null, due: now, lastReview: null }, review.rating, now, S.fuzzSeed(sequence.cardID, index));
      assert.equal(card.state, review.state, `${label}: state`);
      assert.equal(card.step ?? null, review.step, `${label}: step`);
      assert.equal(new Date(card.due).toISOString(), new Date(ms(review.due)).toISOString(), `${label}: due`);
      assert.ok(relative(card.stability, review.stability) <= 1e-9, `${label}: S`);
      assert.ok(relative(card.difficulty, review.difficulty) <= 1e-9, `${label}: D`);
    });
  }
});

test('load balancer: balanced intervals and the accepted range of a recorded one', () => {
  const { cases, accepted } = load('load-balancer.json');
  assert.ok(cases.length >= 40);
  for (const c of cases) {
    const days = {
      dueCount: (offset) => (offset >= 0 && offset < c.dueCounts.length ? c.dueCounts[offset] : 0),
      weight: (offset) => (offset >= 0 && offset < c.weights.length ? c.weights[offset] : 1),
      siblingDays: c.siblingDays,
    };
    assert.equal(S.balancedInterval(c.interval, c.maximum, days, c.fraction), c.expected, c.name);
  }
  for (const { interval, maximum, lower, upper } of accepted) {
    assert.deepEqual(S.acceptedBalancedDays(interval, maximum), [lower, upper], `${interval} within 1…${maximum}`);
  }
});

test('FSRS review with a load: the balancer\'s day, a recorded day kept or refused', () => {
  const fsrs = new S.FSRS({ zone: 'UTC' });
  const now = Date.UTC(2026, 11, 2, 10);
  const fresh = { state: 'learning', step: 0, stability: null, difficulty: null, due: now, lastReview: null };
  const seed = 12_345n;
  const daysUntil = (card) => fsrs.clock.elapsedDays(now, card.due);
  // Easy on a new card graduates it: raw interval S₀(easy) × 1 day at 90 % retention.
  const raw = fsrs.initialStability(4) * fsrs.intervalPerStability;
  const [lower, upper] = S.fuzzBounds(raw, 1, fsrs.maximumInterval);
  const fuzzed = S.fuzzedInterval(raw, 1, fsrs.maximumInterval, S.unitFraction(seed));
  // Every day of the range crowded but one, which is not the day fuzz picks.
  const free = fuzzed === upper ? lower : upper;
  const busy = { dueCount: (offset) => (offset === free ? 0 : 1000), weight: () => 1, siblingDays: [] };
  assert.equal(S.balancedInterval(raw, fsrs.maximumInterval, busy, S.unitFraction(seed)), free);

  const plain = fsrs.review(fresh, 'easy', now, seed);
  assert.equal(daysUntil(plain), fuzzed);
  assert.ok(!('balancedDays' in plain));
  const balanced = fsrs.review(fresh, 'easy', now, seed, busy);
  assert.equal(daysUntil(balanced), free);
  assert.equal(balanced.balancedDays, free);

  const [acceptedLower, acceptedUpper] = S.acceptedBalancedDays(raw, fsrs.maximumInterval);
  const kept = fsrs.review(fresh, 'easy', now, seed, null, acceptedUpper);
  assert.equal(daysUntil(kept), acceptedUpper, 'a recorded day within the accepted range is kept');
  assert.equal(daysUntil(fsrs.review(fresh, 'easy', now, seed, null, acceptedUpper + 1)), fuzzed, 'beyond it: fuzz');
  assert.equal(daysUntil(fsrs.review(fresh, 'easy', now, seed, null, acceptedLower - 1)), fuzzed, 'before it: fuzz');
  const refused = fsrs.review(fresh, 'easy', now, seed, busy, acceptedUpper + 1);
  assert.equal(daysUntil(refused), free, 'beyond it with a load: the balancer');
  assert.equal(refused.balancedDays, free);

  // Not graduating (a learning step), or fuzz off: nothing balanced.
  assert.ok(!('balancedDays' in fsrs.review(fresh, 'good', now, seed, busy)));
  const exact = new S.FSRS({ zone: 'UTC', fuzz: false }).review(fresh, 'easy', now, seed, busy);
  assert.equal(fsrs.clock.elapsedDays(now, exact.due), Math.round(raw));
  assert.ok(!('balancedDays' in exact));
  // Too long to balance: fuzzed as usual, reported as null.
  const long = fsrs.review({ ...fresh, state: 'review', stability: 400, difficulty: 5, lastReview: now - 300 * 86_400_000 }, 'good', now, seed, busy);
  assert.equal(long.balancedDays, null);
});

test('the offline load: due counts by learner day, easy days by weekday, siblings', () => {
  const zone = 'Europe/Berlin';
  const clock = new S.DayClock(zone, 4);
  const now = Date.UTC(2026, 11, 2, 10); // Wednesday 2 December 2026, 11:00 in Berlin
  const today = clock.dayNumber(now);
  const dueIn = (days) => new Date(clock.startOfDay(today + days)).toISOString();
  const cards = [
    { id: 'a', state: 'review', dueAt: dueIn(3), noteId: 'n' },
    { id: 'b', state: 'review', dueAt: dueIn(3) },
    { id: 'c', state: 'learning', dueAt: dueIn(3), noteId: 'n' },
    { id: 'd', state: 'new', dueAt: dueIn(5) },
    { id: 'e', state: 'review', dueAt: dueIn(5), noteId: 'n' },
    { id: 'rated', state: 'review', dueAt: dueIn(0), noteId: 'n' },
  ];
  const easyDays = ['normal', 'normal', 'normal', 'normal', 'normal', 'reduced', 'minimum'];
  const load = S.dayLoad(cards, cards[5], now, { zone, easyDays });
  assert.deepEqual([0, 3, 4, 5].map(load.dueCount), [0, 2, 0, 1]);
  assert.deepEqual(load.siblingDays.sort(), [3, 5]);
  assert.equal(S.weekday(today), 2, 'Wednesday');
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 7].map(load.weight), [1, 1, 1, 0.5, 1e-9, 1, 1, 1]);
  const normal = S.dayLoad(cards, { id: 'x' }, now, { zone, easyDays: null });
  assert.deepEqual([3, 4].map(normal.weight), [1, 1]);
  assert.deepEqual(normal.siblingDays, []);
  // The stack's scheduler passes the load on and reports the interval apart from the card.
  const scheduler = new S.CardScheduler({ scheduler: 'fsrs' }, { zone });
  const card = { id: 'new', state: 'new', dueAt: new Date(now).toISOString(), reviewCount: 0 };
  const rated = scheduler.rate(card, 'easy', now, 7, load);
  assert.ok(Number.isInteger(rated.balancedDays));
  assert.equal(clock.dayNumber(Date.parse(rated.card.dueAt)) - today, rated.balancedDays);
  assert.ok(!('balancedDays' in rated.card));
  assert.equal(scheduler.rate(card, 'easy', now, 7).balancedDays, null);
  assert.deepEqual(scheduler.apply(card, 'easy', now, 7), scheduler.rate(card, 'easy', now, 7).card);
});

test('the ladder: intervals and levels', () => {
  const { intervals, nextLevels } = load('ladder.json');
  for (const { rating, level, seconds } of intervals) assert.equal(S.ladderInterval(rating, level), seconds, `${rating} at ${level}`);
  for (const { rating, level, next } of nextLevels) assert.equal(S.ladderLevel(rating, level), next, `${rating} from ${level}`);
});

test('the learner\'s day: due cut-offs, elapsed days, due dates', () => {
  const { cutoffs, elapsed, addingDays } = load('learner-day.json');
  const iso = (value) => new Date(value).toISOString();
  for (const { now, zone, daysAhead, dayStartHour, cutoff } of cutoffs) {
    assert.equal(iso(S.dueCutoff(ms(now), zone, daysAhead, dayStartHour)), iso(ms(cutoff)), `${now} ${zone} +${daysAhead} from ${dayStartHour}:00`);
  }
  for (const { zone, hour, from, to, days } of elapsed) {
    assert.equal(new S.DayClock(zone, hour).elapsedDays(ms(from), ms(to)), days, `${zone} ${from} → ${to}`);
  }
  for (const { zone, hour, from, days, date } of addingDays) {
    assert.equal(iso(new S.DayClock(zone, hour).addingDays(days, ms(from))), iso(ms(date)), `${zone} ${from} + ${days}`);
  }
});

test('queue order: the head, its rank and the due count', () => {
  const { cases } = load('queue-order.json');
  const BASE = 1_790_000_000;
  for (const c of cases) {
    const at = (offset) => (BASE + offset) * 1000;
    const cards = c.entries.map((e) => ({ number: e.id, state: e.queue, dueAt: new Date(at(e.due)).toISOString() }));
    const rule = c.rule.kind === 'ladder' ? c.rule : { ...c.rule, now: at(c.rule.now) };
    const result = S.queueOrder(cards, at(c.cutoff), rule, S.precedes);
    const rank = result.rank == null ? null : Object.keys(S.RANKS).find((key) => S.RANKS[key] === result.rank);
    assert.deepEqual({ head: result.head?.number ?? null, rank, dueCount: result.dueCount }, { head: c.head, rank: c.rank, dueCount: c.dueCount }, c.name);
  }
});

test('answer checks: verdicts and diffs, normalised texts, answer kinds', () => {
  const { checks, normalized, kinds } = load('answer-check.json');
  for (const { typed, expected, ignoringDiacritics, verdict, diff } of checks) {
    const result = A.checkAnswer(typed, expected, ignoringDiacritics);
    assert.deepEqual({ verdict: result.verdict, diff: result.diff }, { verdict, diff }, `${JSON.stringify(typed)} against ${JSON.stringify(expected)}`);
  }
  for (const { text, ignoringDiacritics, normalized: expected } of normalized) {
    assert.equal(A.normalized(text, ignoringDiacritics), expected, JSON.stringify(text));
  }
  for (const { answer, kind } of kinds) assert.equal(A.answerKind(answer), kind, JSON.stringify(answer));
});

test('quiz options: SplitMix64 draws, distractors, a card\'s own options, true/false', () => {
  const { splitMix64, questions, own, trueFalse } = load('quiz-options.json');
  for (const { seed, values } of splitMix64) {
    const random = new A.SplitMix64(BigInt(seed));
    assert.deepEqual(values.map(() => random.next().toString()), values, `seed ${seed}`);
  }
  for (const c of questions) {
    const q = A.quizQuestion(c.answer, c.candidates.map((x) => ({ number: x.cardID, answer: x.answer })), BigInt(c.seed));
    assert.deepEqual({ options: q.choices, correctIndex: q.correctIndex }, { options: c.options, correctIndex: c.correctIndex }, `${c.answer} seed ${c.seed}`);
  }
  for (const c of own) {
    const q = A.ownChoicesQuestion(c.answer, c.choices, BigInt(c.seed));
    assert.deepEqual({ options: q.choices, correctIndex: q.correctIndex }, { options: c.options, correctIndex: c.correctIndex }, `${c.answer} seed ${c.seed}`);
  }
  for (const c of trueFalse) {
    const q = A.trueFalseQuestion(c.isTrue);
    assert.deepEqual({ options: q.choices, correctIndex: q.correctIndex }, { options: c.options, correctIndex: c.correctIndex });
  }
});

test('card sides of every kind, and cloze gaps', () => {
  const { sides, gaps } = load('card-sides.json');
  const kinds = new Set(sides.map((s) => s.kind));
  assert.deepEqual([...kinds].sort(), ['basic', 'cloze', 'fillBlank', 'multipleChoice', 'reversed', 'trueFalse']);
  for (const c of sides) {
    const label = `${c.kind} ${c.variant} ${JSON.stringify(c.question)}`;
    const got = cardSides(c, (text) => text) ?? { question: c.question, answer: c.answer, expected: c.answer };
    assert.equal(got.question, c.front, `${label}: question side`);
    assert.equal(got.answer, c.back, `${label}: answer side`);
    // A rich card's expected answer is its words (RichText); the browser takes them from the
    // rendered HTML (rich-text.js, e2e/web/test_card_kinds.py), so only plain cards compare here.
    if (c.format === 'plain') assert.equal(got.expected, c.expected, `${label}: expected`);
  }
  for (const { text, gaps: expected } of gaps) {
    assert.deepEqual(clozeGaps(text).map(({ number, answer, hint }) => ({ number, answer, hint })), expected, text);
  }
});

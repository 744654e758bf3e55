// The server's scheduling rules in the browser, so that a session without a connection shows the
// same next card and the same intervals on the rating buttons as the server would. A port of
// FlashcardsCore: Ladder.swift (the ladder), FSRS/ (FSRS-6: model, state machine, fuzz, day
// counting), Study/CardSchedule.swift (applying a rating to a card's schedule, the rating options),
// Study/QueueOrder.swift (which card comes next, due counts, daily limits) and StudyDay.swift (the
// learner's day in the user's time zone). Pure functions over plain objects; times are
// milliseconds since 1970 (the server's are seconds as doubles, and its JSON rounds to the ms).
// e2e/web/test_offline.py checks this module against the server; Tests/js/parity.test.mjs replays
// Core's fixtures (Tests/FlashcardsCoreTests/Fixtures/) under Node. The constants come from Core
// through core-constants.js.
import CORE from './core-constants.js';

const DAY = 86_400;
const MASK = (1n << 64n) - 1n;

// --- the learner's day ---------------------------------------------------------------------------

const zoneFormats = new Map();

/** A time zone the browser knows, else UTC (the server falls back to GMT for an unknown one). */
export function knownZone(zone) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone || 'UTC' });
    return zone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** Seconds east of UTC in `zone` at Unix time `t` (seconds), as Foundation's `secondsFromGMT(for:)`. */
export function zoneOffset(zone, t) {
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric',
      hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    zoneFormats.set(zone, format);
  }
  const whole = Math.floor(t);
  const parts = {};
  for (const { type, value } of format.formatToParts(new Date(whole * 1000))) parts[type] = Number(value);
  const date = new Date(0);
  date.setUTCFullYear(parts.year, parts.month - 1, parts.day);
  date.setUTCHours(parts.hour, parts.minute, parts.second, 0);
  return date.getTime() / 1000 - whole;
}

/**
 * Days that change at `hour`:00 on the wall clock of `zone` (FSRSDayCounting.rollover and the
 * server's DayClock): day numbers, the instant a day starts, whole days between two instants.
 */
export class DayClock {
  constructor(zone, hour) {
    this.zone = knownZone(zone);
    this.hour = hour;
  }

  offset(t) { return zoneOffset(this.zone, t); }

  /** The number of the day the instant `ms` falls into. */
  dayNumber(ms) {
    const t = ms / 1000;
    return Math.floor((t + this.offset(t) - this.hour * 3_600) / DAY);
  }

  /** The instant (ms) day `day` begins. Around a daylight-saving change as the server does it: a wall
   * time that exists twice gives its first instant, one the clock skips the change itself. */
  startOfDay(day) {
    const local = day * DAY + this.hour * 3_600;
    const before = local - this.offset(local - DAY);
    const after = local - this.offset(local + DAY);
    if (before === after) return before * 1000;
    const valid = [before, after].filter((x) => x + this.offset(x) === local);
    return (valid.length ? Math.min(...valid) : Math.max(before, after)) * 1000;
  }

  elapsedDays(earlier, later) { return this.dayNumber(later) - this.dayNumber(earlier); }

  /** The start of the day `days` days after the day of `ms` (where review due dates land). */
  addingDays(days, ms) { return this.startOfDay(this.dayNumber(ms) + days); }
}

/** The hour the learner's day starts: midnight for ladder stacks, 04:00 for FSRS stacks. */
export const dayStartHour = (scheduler) => (scheduler === 'fsrs' ? 4 : 0);

/** Cards due before this instant count as due: the end of the learner's day plus `daysAhead` days. */
export function dueCutoff(now, zone, daysAhead, hour) {
  const clock = new DayClock(zone, hour);
  return clock.startOfDay(clock.dayNumber(now) + 1 + Math.max(daysAhead, 0));
}

// --- the ladder ----------------------------------------------------------------------------------

export const LADDER_MAX_LEVEL = CORE.ladder.maximumLevel;
const LADDER = Object.fromEntries(CORE.ladder.ratings.map((r) => [r.key, r.intervals]));

/** Seconds until the next review when a card at `level` is rated `rating` (easy, medium, hard). */
export function ladderInterval(rating, level) {
  const table = LADDER[rating];
  return table[Math.min(Math.max(level, 0), table.length - 1)];
}

/** The level after `rating`: Einfach climbs one, Mittel stays, Schwer drops one (half above 4). */
export function ladderLevel(rating, level) {
  const current = Math.min(Math.max(level, 0), LADDER_MAX_LEVEL);
  if (rating === 'easy') return Math.min(current + 1, LADDER_MAX_LEVEL);
  if (rating === 'medium') return current;
  return Math.max(current - (current > 4 ? Math.floor(current / 2) : 1), 0);
}

// --- FSRS-6 --------------------------------------------------------------------------------------

const F = CORE.fsrs;
export const DEFAULT_PARAMETERS = F.defaultParameters;
const LOWER = F.parameterLowerBounds;
const UPPER = F.parameterUpperBounds;
const GRADES = Object.fromEntries(F.ratings.map((r) => [r.key, r.grade]));
export const FSRS_RATINGS = F.ratings.map((r) => r.key);
const DEFAULTS = {
  parameters: DEFAULT_PARAMETERS, desiredRetention: F.desiredRetention, learningSteps: F.learningSteps,
  relearningSteps: F.relearningSteps, maximumInterval: F.maximumInterval,
};

const clampStability = (s) => Math.min(Math.max(s, F.minimumStability), F.maximumStability);
const clampDifficulty = (d) => Math.min(Math.max(d, F.minimumDifficulty), F.maximumDifficulty);

/** Whether a stack's settings and the user's parameters make a valid configuration (the server falls
 * back to the defaults otherwise). */
function valid({ parameters, desiredRetention, learningSteps, relearningSteps, maximumInterval }) {
  return maximumInterval >= 1 && parameters.length === 21 && parameters.every((w, i) => w >= LOWER[i] && w <= UPPER[i])
    && desiredRetention > 0 && desiredRetention < 1
    && [...learningSteps, ...relearningSteps].every((s) => s > 0 && Number.isFinite(s));
}

/** The fuzz seed of a card's `reviewCount`-th review: its numeric id plus the count (UInt64). */
export function fuzzSeed(cardNumber, reviewCount) {
  return (BigInt(cardNumber) + BigInt(reviewCount)) & MASK;
}

/** A number in [0, 1) from a seed: the SplitMix64 finaliser, top 53 bits. */
export function unitFraction(seed) {
  let z = (seed + 0x9E3779B97F4A7C15n) & MASK;
  z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
  z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
  z ^= z >> 31n;
  return Number(z >> 11n) * 2 ** -53;
}

/** Anki's fuzz range around `interval` days, within minimum … maximum. */
export function fuzzBounds(interval, minimum, maximum) {
  minimum = Math.min(minimum, maximum);
  const clamped = Math.min(Math.max(interval, minimum), maximum);
  let delta = 0;
  if (clamped >= 2.5) {
    delta = 1 + 0.15 * Math.max(Math.min(clamped, 7) - 2.5, 0) + 0.10 * Math.max(Math.min(clamped, 20) - 7, 0)
      + 0.05 * Math.max(clamped - 20, 0);
  }
  let lower = Math.min(Math.max(Math.round(clamped - delta), minimum), maximum);
  let upper = Math.min(Math.max(Math.round(clamped + delta), minimum), maximum);
  if (lower > upper) [lower, upper] = [upper, lower];
  if (upper === lower && upper > 2 && upper < maximum) upper = lower + 1;
  return [lower, upper];
}

export function fuzzedInterval(interval, minimum, maximum, fraction) {
  const [lower, upper] = fuzzBounds(interval, minimum, maximum);
  return Math.min(lower + Math.floor(fraction * (upper - lower + 1)), upper);
}

// --- the load balancer and easy days (FSRS/FSRSLoadBalancer.swift) ---------------------------------

const LB = CORE.loadBalancer;
/** A weekday's easy-day weight by its setting ("normal", "reduced", "minimum"). */
export const EASY_DAY_WEIGHTS = LB.easyDayWeights;

/** The weekday of a learner day (days since 1970), Monday 0 … Sunday 6 (CivilDate.weekday). */
export const weekday = (day) => (((day + 3) % 7) + 7) % 7;

const sum = (values) => values.reduce((total, value) => total + value, 0);

/**
 * Per candidate day: its weight for normal and minimum days; a reduced day (0 < w < 1) counts as
 * normal while its load scaled by 1/w stays at or below the other days' load per unit of weight,
 * and as minimum above it (FSRSLoadBalancer.easyDayModifiers).
 */
export function easyDayModifiers(weights, counts) {
  const totalWeight = sum(weights);
  const totalCount = sum(counts);
  return weights.map((weight, index) => {
    if (!(weight > LB.minimumWeight && weight < 1)) return Math.max(weight, LB.minimumWeight);
    const otherWeight = totalWeight - weight;
    if (!(otherWeight > 0)) return 1;
    const threshold = (totalCount - counts[index]) / otherWeight;
    return counts[index] / weight > threshold ? LB.minimumWeight : 1;
  });
}

/** The product, over the sibling days, of how close `day` is to each. */
export function siblingModifier(day, siblingDays) {
  let modifier = 1;
  for (const sibling of siblingDays) {
    const distance = Math.abs(day - sibling);
    if (distance === 0) modifier *= LB.siblingSameDay;
    else if (distance <= LB.siblingNear.length) modifier *= LB.siblingNear[distance - 1];
  }
  return modifier;
}

/** The index whose cumulative weight first exceeds `fraction` of the total. */
export function pick(weights, fraction) {
  const total = sum(weights);
  if (!(total > 0) || !Number.isFinite(total)) return 0;
  let target = fraction * total;
  for (let index = 0; index < weights.length; index += 1) {
    if (target < weights[index]) return index;
    target -= weights[index];
  }
  return weights.length - 1;
}

/**
 * FSRSLoadBalancer.interval: the balanced interval in days for the unfuzzed `interval`, within
 * 1 … `maximum`, or null when it is too long to balance (the caller fuzzes as usual). `days`:
 * {dueCount(offset), weight(offset), siblingDays: [offsets]}, offsets from today (day 0);
 * `fraction` in [0, 1) draws the day.
 */
export function balancedInterval(interval, maximum, days, fraction) {
  if (!(interval <= LB.maximumBalancedInterval)) return null;
  let [lower, upper] = fuzzBounds(interval, 1, maximum);
  if (lower > LB.maximumBalancedInterval) return null;
  const range = (from, to) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  // A range of only minimum days: let the card move a day earlier or later.
  if (range(lower, upper).every((day) => days.weight(day) <= LB.minimumWeight)) {
    lower = Math.max(1, lower - 1);
    upper = Math.min(maximum, upper + 1);
  }
  const candidates = range(lower, upper);
  const counts = candidates.map((day) => Math.max(0, days.dueCount(day)));
  const easy = easyDayModifiers(candidates.map((day) => days.weight(day)), counts);
  const siblings = days.siblingDays ?? [];
  const weights = candidates.map((day, index) => {
    const load = counts[index] + 1;
    return Math.pow(1 / load, LB.loadExponent) * Math.pow(1 / day, LB.intervalExponent) * easy[index]
      * siblingModifier(day, siblings);
  });
  return candidates[pick(weights, fraction)];
}

/**
 * The days a recorded balanced interval may take for the unfuzzed `interval` and still be kept on
 * replay (FSRSLoadBalancer.acceptedRange): the fuzz range widened by a day on each side (the
 * balancer's widening of an all-minimum range), within 1 … `maximum`.
 */
export function acceptedBalancedDays(interval, maximum) {
  const [lower, upper] = fuzzBounds(interval, 1, maximum);
  return [Math.min(Math.max(lower - 1, 1), maximum), Math.min(Math.max(upper + 1, 1), maximum)];
}

/** py-fsrs' day counting (FSRSDayCounting.twentyFourHourPeriods): whole 24-hour periods. */
const TWENTY_FOUR_HOUR_PERIODS = {
  elapsedDays: (earlier, later) => Math.floor((later - earlier) / (DAY * 1000)),
  addingDays: (days, ms) => ms + days * DAY * 1000,
};

/**
 * FSRS-6 for one stack: its retention and steps, the user's parameters, days from 04:00 in `zone`.
 * `fuzz: false` and `dayCounting: '24h'` are py-fsrs' behaviour, for the golden vectors.
 */
export class FSRS {
  constructor({
    parameters, desiredRetention = F.desiredRetention, learningSteps = F.learningSteps, relearningSteps = F.relearningSteps,
    maximumInterval = F.maximumInterval, fuzz = true, dayCounting = null, zone, shortTerm = false,
  }) {
    let config = { parameters: parameters || DEFAULT_PARAMETERS, desiredRetention, learningSteps, relearningSteps, maximumInterval };
    if (!valid(config)) config = { ...DEFAULTS };
    Object.assign(this, config);
    this.fuzz = fuzz;
    // Without (re)learning steps FSRS schedules same-day reviews itself (Core's schedulesShortTerm).
    this.shortTerm = shortTerm;
    this.clock = dayCounting === '24h' ? TWENTY_FOUR_HOUR_PERIODS : new DayClock(zone, F.dayStartHour);
    const w = this.parameters;
    this.w = w;
    this.decay = -w[20];
    this.factor = Math.pow(0.9, 1 / this.decay) - 1;
    this.expW8 = Math.exp(w[8]);
    this.shortTermForgetDivisor = Math.exp(w[17] * w[18]);
    this.easyInitialDifficulty = w[4] - Math.exp(w[5] * 3) + 1;
    this.intervalPerStability = (Math.pow(this.desiredRetention, 1 / this.decay) - 1) / this.factor;
  }

  retrievability(elapsedDays, stability) {
    return Math.pow(1 + this.factor * Math.max(0, elapsedDays) / stability, this.decay);
  }

  initialStability(grade) { return clampStability(this.w[grade - 1]); }

  initialDifficulty(grade) { return clampDifficulty(this.w[4] - Math.exp(this.w[5] * (grade - 1)) + 1); }

  nextDifficulty(difficulty, grade) {
    const { w } = this;
    const delta = -w[6] * (grade - 3);
    const damped = difficulty + (10 - difficulty) * delta / 9;
    return clampDifficulty(w[7] * this.easyInitialDifficulty + (1 - w[7]) * damped);
  }

  recallStability(difficulty, stability, retrievability, grade) {
    const { w } = this;
    const hardPenalty = grade === 2 ? w[15] : 1;
    const easyBonus = grade === 4 ? w[16] : 1;
    const growth = this.expW8 * (11 - difficulty) * Math.pow(stability, -w[9])
      * (Math.exp((1 - retrievability) * w[10]) - 1) * hardPenalty * easyBonus;
    return clampStability(stability * (1 + growth));
  }

  forgetStability(difficulty, stability, retrievability) {
    const { w } = this;
    const longTerm = w[11] * Math.pow(difficulty, -w[12]) * (Math.pow(stability + 1, w[13]) - 1)
      * Math.exp((1 - retrievability) * w[14]);
    return clampStability(Math.min(longTerm, stability / this.shortTermForgetDivisor));
  }

  shortTermStability(stability, grade) {
    const { w } = this;
    let increase = Math.exp(w[17] * (grade - 3 + w[18])) * Math.pow(stability, -w[19]);
    if (grade !== 1) increase = Math.max(increase, 1);
    return clampStability(stability * increase);
  }

  nextStability(difficulty, stability, elapsedDays, grade) {
    if (elapsedDays < 1) return this.shortTermStability(stability, grade);
    const r = this.retrievability(elapsedDays, stability);
    if (grade === 1) return this.forgetStability(difficulty, stability, r);
    return this.recallStability(difficulty, stability, r, grade);
  }

  /**
   * The days until a graduating card's review for the raw interval `raw` (fuzz on): a recorded
   * `balancedDays` within its accepted range, else the load balancer's day with `load`, else fuzz;
   * `balanced` is the balancer's (or the kept recorded) day, null when it declined.
   */
  graduationDays(raw, seed, load, balancedDays) {
    const maximum = this.maximumInterval;
    const clamped = Math.min(Math.max(raw, 1), maximum);
    const fraction = unitFraction(seed);
    let balanced = null;
    if (Number.isInteger(balancedDays)) {
      const [lower, upper] = acceptedBalancedDays(clamped, maximum);
      if (balancedDays >= lower && balancedDays <= upper) balanced = balancedDays;
    }
    if (balanced == null && load) balanced = balancedInterval(clamped, maximum, load, fraction);
    return { days: balanced ?? fuzzedInterval(raw, 1, maximum, fraction), balanced };
  }

  /** With `shortTerm`, the seconds (at least 60) to a same-day review for `stability`: its interval
   * at the desired retention when under a day; null otherwise (Core's shortTermDelay). */
  shortTermDelay(stability) {
    if (!this.shortTerm) return null;
    const days = stability * this.intervalPerStability;
    return days < 1 ? Math.max(60, Math.round(days * 86400)) : null;
  }

  /**
   * The FSRS card after `rating` at `now`: `card` is {state: learning|review|relearning, step,
   * stability, difficulty, due, lastReview} (a new card: learning, step 0, no memory). With fuzz on
   * and the card graduating, `balancedDays` (a balanced interval recorded before) is kept when in
   * its accepted range, else `load` ({dueCount, weight, siblingDays}, see `balancedInterval`)
   * places the due day; with `load` the result carries `balancedDays`: the balanced interval, or
   * null when the interval was too long to balance (fuzzed as usual).
   */
  review(card, rating, now, seed, load = null, balancedDays = null) {
    const grade = GRADES[rating];
    const next = { ...card, lastReview: now };
    delete next.balancedDays;
    if (card.stability != null && card.difficulty != null) {
      if (card.lastReview != null) {
        next.stability = this.nextStability(card.difficulty, card.stability, this.clock.elapsedDays(card.lastReview, now), grade);
      } else {
        next.stability = grade === 1
          ? this.forgetStability(card.difficulty, card.stability, 0)
          : this.recallStability(card.difficulty, card.stability, 0, grade);
      }
      next.difficulty = this.nextDifficulty(card.difficulty, grade);
    } else {
      next.stability = this.initialStability(grade);
      next.difficulty = this.initialDifficulty(grade);
    }
    const graduate = () => {
      next.state = 'review';
      next.step = null;
      const raw = next.stability * this.intervalPerStability;
      let days = Math.min(Math.max(Math.round(raw), 1), this.maximumInterval);
      if (this.fuzz) {
        const chosen = this.graduationDays(raw, seed, load, balancedDays);
        days = chosen.days;
        if (load) next.balancedDays = chosen.balanced;
      }
      next.due = this.clock.addingDays(days, now);
    };
    const sameDay = this.shortTermDelay(next.stability);
    if (card.state === 'review') {
      if (grade === 1 && (this.relearningSteps.length || sameDay != null)) {
        next.state = 'relearning';
        next.step = 0;
        next.due = now + (this.relearningSteps.length ? this.relearningSteps[0] : sameDay) * 1000;
      } else {
        graduate();
      }
      return next;
    }
    const steps = card.state === 'learning' ? this.learningSteps : this.relearningSteps;
    const step = card.step ?? 0;
    if (!steps.length && sameDay != null) {
      next.step = 0;
      next.due = now + sameDay * 1000;
    } else if (!steps.length || (step >= steps.length && grade !== 1)) {
      graduate();
    } else if (grade === 1) {
      next.step = 0;
      next.due = now + steps[0] * 1000;
    } else if (grade === 2) {
      next.step = step;
      const delay = step === 0 ? (steps.length === 1 ? steps[0] * 1.5 : (steps[0] + steps[1]) / 2) : steps[step];
      next.due = now + delay * 1000;
    } else if (grade === 3) {
      if (step + 1 >= steps.length) {
        graduate();
      } else {
        next.step = step + 1;
        next.due = now + steps[step + 1] * 1000;
      }
    } else {
      graduate();
    }
    return next;
  }
}

// --- a card's schedule ---------------------------------------------------------------------------

const ms = (iso) => (iso == null ? null : new Date(iso).getTime());
const iso = (value) => (value == null ? null : new Date(value).toISOString());

/**
 * The scheduler of one stack for its learner: `stack` as `GET /stacks` sends it (scheduler,
 * retention, steps, daily limits), the user's FSRS `parameters` (null: the defaults) and time zone.
 */
export class CardScheduler {
  constructor(stack, { parameters = null, zone = 'UTC' } = {}) {
    this.stack = stack;
    this.kind = stack.scheduler === 'ladder' ? 'ladder' : 'fsrs';
    this.zone = knownZone(zone);
    this.fsrs = new FSRS({
      parameters, desiredRetention: stack.desiredRetention ?? F.desiredRetention,
      learningSteps: stack.learningSteps ?? F.learningSteps, relearningSteps: stack.relearningSteps ?? F.relearningSteps,
      zone: this.zone, shortTerm: true,
    });
  }

  /** The rating keys of this scheduler, worst first (the buttons' order). */
  get ratings() { return this.kind === 'ladder' ? CORE.ladder.ratings.map((r) => r.key) : FSRS_RATINGS; }

  /** The FSRS view of a card (`GET …/cards` fields): a new card without FSRS history. */
  fsrsCard(card) {
    const state = card.state && card.state !== 'new' ? card.state : null;
    if (card.lastReviewedAt == null || !state) return { state: 'learning', step: 0, stability: null, difficulty: null, due: ms(card.dueAt), lastReview: null };
    return {
      state, step: card.step ?? null, stability: card.stability ?? null, difficulty: card.difficulty ?? null,
      due: ms(card.dueAt), lastReview: ms(card.lastReviewedAt),
    };
  }

  /** The card's schedule fields after `rating` at `now` (ms); `number` is its numeric id (fuzz seed). */
  apply(card, rating, now, number) { return this.rate(card, rating, now, number).card; }

  /**
   * `apply` with the load balancer: `load` ({dueCount, weight, siblingDays}, offsets from the
   * learner day of `now`) places an FSRS card's review day. Returns {card, balancedDays}: the
   * balanced interval to send with the review (null when not balanced).
   */
  rate(card, rating, now, number, load = null) {
    const reviewCount = card.reviewCount ?? 0;
    const out = {};
    let balancedDays = null;
    if (this.kind === 'ladder') {
      const level = card.level ?? 0;
      out.dueAt = iso(now + ladderInterval(rating, level) * 1000);
      out.level = ladderLevel(rating, level);
      out.state = out.level < 4 ? 'learning' : 'review';
      out.step = null;
      out.stability = null;
      out.difficulty = null;
    } else {
      const next = this.fsrs.review(this.fsrsCard(card), rating, now, fuzzSeed(number, reviewCount), load);
      balancedDays = next.balancedDays ?? null;
      out.dueAt = iso(next.due);
      out.state = next.state;
      out.step = next.step;
      out.stability = next.stability;
      out.difficulty = next.difficulty;
      out.level = Math.min(reviewCount + 1, LADDER_MAX_LEVEL);
    }
    out.reviewCount = reviewCount + 1;
    out.firstReviewedAt = card.firstReviewedAt ?? iso(now);
    out.lastReviewedAt = iso(now);
    return { card: { ...card, ...out }, balancedDays };
  }

  /** The rating buttons for `card` at `now`: {rating, id, label, color, intervalSeconds, intervalText}; with `load` the days the load balancer gives. */
  options(card, now, number, load = null) {
    return this.ratings.map((rating) => {
      let seconds;
      if (this.kind === 'ladder') {
        seconds = ladderInterval(rating, card.level ?? 0);
      } else {
        const due = ms(this.rate(card, rating, now, number, load).card.dueAt);
        seconds = Math.max(0, Math.round((due - now) / 1000));
      }
      return { rating, ...BUTTONS[this.kind][rating], intervalSeconds: seconds, intervalText: '' };
    });
  }

  // --- the queue ---

  /** Learner day boundaries of this stack's scheduler. */
  clock() { return new DayClock(this.zone, dayStartHour(this.kind)); }

  /** Today's allowance of an FSRS stack: new cards and reviews left, from the cards' review times. */
  allowance(cards, now) {
    const clock = this.clock();
    const dayStart = clock.startOfDay(clock.dayNumber(now));
    let reviewed = 0;
    let fresh = 0;
    for (const card of cards) {
      if (card.lastReviewedAt != null && ms(card.lastReviewedAt) >= dayStart) {
        reviewed += 1;
        if (card.firstReviewedAt != null && ms(card.firstReviewedAt) >= dayStart) fresh += 1;
      }
    }
    return {
      newLeft: Math.max(0, (this.stack.newCardsPerDay ?? CORE.queue.newCardsPerDay) - fresh),
      reviewsLeft: Math.max(0, (this.stack.reviewsPerDay ?? CORE.queue.reviewsPerDay) - (reviewed - fresh)),
    };
  }

  /**
   * What to study now among `cards` (each with `number`, its numeric id, for ties): {card (null when
   * nothing is shown), dueCount, held, nextDueAt} as `study/next` answers (QueueOrder.select).
   */
  select(cards, now, daysAhead = 0) {
    const clock = this.clock();
    const cutoff = clock.startOfDay(clock.dayNumber(now) + 1 + Math.max(daysAhead, 0));
    let rule = { kind: 'ladder' };
    if (this.kind !== 'ladder') {
      const { newLeft, reviewsLeft } = this.allowance(cards, now);
      rule = { kind: 'fsrs', now, reviewCap: Math.min(reviewsLeft, LIMIT), newCap: Math.min(newLeft, LIMIT) };
    }
    const { head, rank, dueCount } = queueOrder(cards, cutoff, rule, precedes);
    const held = rank === RANKS.held;
    const shown = held ? null : head;
    let nextDueAt = null;
    if (!shown) {
      if (held) nextDueAt = iso(clock.startOfDay(clock.dayNumber(now) + 1));
      else nextDueAt = cards.length ? [...cards].sort(precedes)[0].dueAt : null;
    }
    return { card: shown, dueCount, held, nextDueAt };
  }

  /** Due cards as the stack list counts them (`dueCount` of `GET /stacks`). */
  dueCount(cards, now) { return this.select(cards, now).dueCount; }
}

/**
 * The load balancer's view (`balancedInterval`'s `days`) of the days ahead of `now` for rating
 * `card`, from `cards` (the learner's FSRS cards, `GET …/cards` fields): cards in the review queue
 * due on each learner day (FSRS days in `zone`; the card itself left out), the weekday weights of
 * `easyDays` (7 settings, Monday first; anything else: every day normal) and the days of review
 * cards of the same note (`noteId`).
 */
export function dayLoad(cards, card, now, { zone = 'UTC', easyDays = null } = {}) {
  const clock = new DayClock(zone, F.dayStartHour);
  const today = clock.dayNumber(now);
  const offsets = new Map(); // dueAt -> offset: review days share a few due instants
  const offsetOf = (dueAt) => {
    if (!offsets.has(dueAt)) offsets.set(dueAt, clock.dayNumber(ms(dueAt)) - today);
    return offsets.get(dueAt);
  };
  const counts = new Map();
  const siblingDays = [];
  for (const other of cards) {
    if (other.id === card.id || other.dueAt == null || queueOf(other) !== 'review') continue;
    const offset = offsetOf(other.dueAt);
    counts.set(offset, (counts.get(offset) ?? 0) + 1);
    if (card.noteId != null && other.noteId === card.noteId) siblingDays.push(offset);
  }
  const weekdays = Array.isArray(easyDays) && easyDays.length === 7 ? easyDays : [];
  return {
    dueCount: (offset) => counts.get(offset) ?? 0,
    weight: (offset) => {
      const setting = weekdays[weekday(today + offset)];
      return Object.hasOwn(EASY_DAY_WEIGHTS, setting) ? EASY_DAY_WEIGHTS[setting] : EASY_DAY_WEIGHTS.normal;
    },
    siblingDays,
  };
}

/** Due counts stop here ("1000+"), as the server's. */
const LIMIT = CORE.queue.dueCountLimit;

/** How a queue's first due card ranks (QueueOrder.HeadRank); the lowest is shown. */
export const RANKS = { learningDue: 0, allowed: 1, learningLater: 2, held: 3 };

/**
 * QueueOrder.select: among `cards` ({dueAt, state, …}) those due before `cutoff` (ms), the first by
 * `rule` ({kind: 'ladder'} or {kind: 'fsrs', now, reviewCap, newCap}) with its rank (FSRS) and the
 * due count the caps let through; `order` compares two cards (due time, then the older card).
 */
export function queueOrder(cards, cutoff, rule, order) {
  const due = cards.filter((c) => ms(c.dueAt) < cutoff).sort(order);
  if (rule.kind === 'ladder') return { head: due[0] ?? null, rank: null, dueCount: Math.min(due.length, LIMIT) };
  const { now, reviewCap, newCap } = rule;
  const queue = (name) => due.filter((c) => queueOf(c) === name);
  const [learning, reviews, fresh] = [queue('learning'), queue('review'), queue('new')];
  const dueCount = Math.min(learning.length + Math.min(reviews.length, reviewCap) + Math.min(fresh.length, newCap), LIMIT);
  const heads = [];
  if (learning[0]) heads.push([learning[0], ms(learning[0].dueAt) <= now ? RANKS.learningDue : RANKS.learningLater]);
  if (reviews[0]) heads.push([reviews[0], reviewCap > 0 ? RANKS.allowed : RANKS.held]);
  if (fresh[0]) heads.push([fresh[0], newCap > 0 ? RANKS.allowed : RANKS.held]);
  heads.sort((a, b) => (a[1] !== b[1] ? a[1] - b[1] : order(a[0], b[0])));
  return heads.length ? { head: heads[0][0], rank: heads[0][1], dueCount } : { head: null, rank: null, dueCount };
}

const queueOf = (card) => {
  const state = card.state || 'new';
  if (state === 'new') return 'new';
  return state === 'review' ? 'review' : 'learning';
};

/** Due time, then the older card (numeric id; the creation time where it is not known). */
export function precedes(a, b) {
  const d = ms(a.dueAt) - ms(b.dueAt);
  if (d !== 0) return d;
  if (a.number != null && b.number != null) return a.number - b.number;
  return ms(a.createdAt) - ms(b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Labels (German, as the API sends them), colours and the original API's ids of the buttons. */
const button = ({ id, label, color }) => ({ id, label, color });
const BUTTONS = {
  ladder: Object.fromEntries(CORE.ladder.ratings.map((r) => [r.key, button(r)])),
  fsrs: Object.fromEntries(F.ratings.map((r) => [r.key, button(r)])),
};

// The Write and Quiz modes' rules without the server (FlashcardsCore's StudyModes/: AnswerCheck,
// AnswerKind, QuizOptions; SplitMix64): a typed answer's verdict and character diff, and a quiz
// question's choices, computed as the server computes them, so an offline session asks and judges
// the same way. Checked against Core's fixtures under Node (Tests/js/parity.test.mjs).
import CORE from './core-constants.js';

const MASK = (1n << 64n) - 1n;
const segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('en', { granularity: 'grapheme' }) : null;

/** A text's characters (grapheme clusters, as Swift counts them). */
export const characters = (text) => (segmenter ? Array.from(segmenter.segment(text), (s) => s.segment) : Array.from(text));

// Swift's Character properties, which look at a character's first scalar. `isNumber` is "has a
// numeric type", which takes in CJK ideographs that are numerals ("一", "万"): listed here, as
// Unicode's Unihan data names them (JS has no property for them).
const HAN_NUMERALS = /^[\u{3405}\u{3483}\u{382A}\u{3B4D}\u{4E00}\u{4E03}\u{4E07}\u{4E09}\u{4E5D}\u{4E8C}\u{4E94}\u{4E96}\u{4EBF}-\u{4EC0}\u{4EDF}\u{4EE8}\u{4F0D}\u{4F70}\u{5104}\u{5146}\u{5169}\u{516B}\u{516D}\u{5341}\u{5343}-\u{5345}\u{534C}\u{53C1}-\u{53C4}\u{56DB}\u{58F1}\u{58F9}\u{5E7A}\u{5EFE}-\u{5EFF}\u{5F0C}-\u{5F0E}\u{5F10}\u{62FE}\u{634C}\u{67D2}\u{6F06}\u{7396}\u{767E}\u{8086}\u{842C}\u{8CAE}\u{8CB3}\u{8D30}\u{9621}\u{9646}\u{964C}\u{9678}\u{96F6}\u{F96B}\u{F973}\u{F978}\u{F9B2}\u{F9D1}\u{F9D3}\u{F9FD}\u{20001}\u{20064}\u{200E2}\u{20121}\u{2092A}\u{20983}\u{2098C}\u{2099C}\u{20AEA}\u{20AFD}\u{20B19}\u{22390}\u{22998}\u{23B1B}\u{2626D}\u{2F890}]$/u;
const first = (ch) => String.fromCodePoint(ch.codePointAt(0));
const isWhitespace = (ch) => /^\p{White_Space}$/u.test(first(ch));
const isLetter = (ch) => /^\p{Alphabetic}$/u.test(first(ch));
const isNumber = (ch) => /^\p{N}$/u.test(first(ch)) || HAN_NUMERALS.test(first(ch));
const isPunctuation = (ch) => /^\p{P}$/u.test(first(ch));
const every = (ch, re) => Array.from(ch).every((scalar) => re.test(scalar));

/** Whether a character counts: letters, digits, emoji, math and currency signs; no punctuation. */
function keeps(ch) {
  if (isLetter(ch) || isNumber(ch)) return true;
  if (isPunctuation(ch)) return false;
  return /\p{Emoji_Presentation}/u.test(ch) || every(ch, /^\p{Sm}$/u) || every(ch, /^\p{Sc}$/u);
}

/**
 * Lowercased scalar by scalar (as Swift's `lowercased()`: no final sigma), "ß" as "ss", without
 * combining marks when diacritics are ignored; in NFC, so texts Swift holds equal (canonically
 * equivalent, "é" and "e" + U+0301) are equal here too.
 */
function fold(text, ignoringDiacritics) {
  const lowered = Array.from(text, (scalar) => scalar.toLowerCase()).join('').replaceAll('ß', 'ss');
  if (!ignoringDiacritics) return lowered.normalize('NFC');
  return lowered.normalize('NFD').replace(/\p{Mn}/gu, '').normalize('NFC');
}

/** The text as the check compares it: folded, punctuation gone, whitespace runs as one space. */
export function normalized(text, ignoringDiacritics = false) {
  let result = '';
  let pendingSpace = false;
  for (const ch of characters(fold(text, ignoringDiacritics))) {
    if (isWhitespace(ch)) {
      pendingSpace = result.length > 0;
      continue;
    }
    if (!keeps(ch)) continue;
    if (pendingSpace) result += ' ';
    pendingSpace = false;
    result += ch;
  }
  return result;
}

/** numeric, term (one or two words) or phrase. */
export function answerKind(answer) {
  const text = characters(normalized(answer));
  const digits = text.filter(isNumber).length;
  const letters = text.filter(isLetter).length;
  if (digits > 0 && digits >= letters) return 'numeric';
  return text.join('').split(' ').filter(Boolean).length <= 2 ? 'term' : 'phrase';
}

/** The edit distance of `a` and `b` (character arrays) when at most `limit`, else null. */
function editDistance(a, b, limit) {
  if (Math.abs(a.length - b.length) > limit) return null;
  if (!a.length || !b.length) return Math.max(a.length, b.length);
  const infinity = limit + 1;
  let previous = new Array(b.length + 1).fill(infinity);
  for (let j = 0; j <= Math.min(b.length, limit); j += 1) previous[j] = j;
  let current = previous.slice();
  for (let i = 1; i <= a.length; i += 1) {
    const low = Math.max(1, i - limit);
    const high = Math.min(b.length, i + limit);
    current.fill(infinity);
    if (i <= limit) current[0] = i;
    for (let j = low; j <= high; j += 1) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(substitution, previous[j] + 1, current[j - 1] + 1, infinity);
    }
    let least = infinity;
    for (let j = Math.max(0, low - 1); j <= high; j += 1) least = Math.min(least, current[j]);
    if (least >= infinity) return null;
    [previous, current] = [current, previous];
  }
  return previous[b.length] <= limit ? previous[b.length] : null;
}

const DIFF_EDIT_LIMIT = CORE.answerCheck.diffEditLimit;
const COMPARED_LENGTH = CORE.answerCheck.comparedLength;
const DISTRACTORS = CORE.quiz.maximumOptions - 1;

/** Myers' shortest edit script from `a` to `b` ('same', 'delete', 'insert'); null beyond `limit` edits. */
function editScript(a, b, limit) {
  const n = a.length;
  const m = b.length;
  const maximum = Math.min(n + m, limit);
  const offset = maximum + 1;
  const v = new Array(2 * maximum + 3).fill(0);
  const trace = [];
  for (let d = 0; d <= maximum; d += 1) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = (k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x += 1; y += 1; }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, n, m, offset);
    }
  }
  return null;
}

function backtrack(trace, n, m, offset) {
  const steps = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d -= 1) {
    const v = trace[d];
    const k = x - y;
    const previousK = (k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1])) ? k + 1 : k - 1;
    const previousX = v[offset + previousK];
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) { steps.push('same'); x -= 1; y -= 1; }
    if (d > 0) steps.push(x === previousX ? 'insert' : 'delete');
    x = previousX;
    y = previousY;
  }
  return steps.reverse();
}

function merged(segments) {
  const result = [];
  for (const segment of segments) {
    if (!segment.text) continue;
    const last = result[result.length - 1];
    if (last && last.kind === segment.kind) last.text += segment.text;
    else result.push({ ...segment });
  }
  return result;
}

/** The typed text against the expected one, character by character: runs of same, extra, missing. */
export function diff(typed, expected, ignoringDiacritics = false) {
  const a = characters(typed);
  const b = characters(expected);
  const key = (ch) => (/^[\x00-\x7f]$/.test(ch) ? ch.toLowerCase() : fold(ch, ignoringDiacritics));
  const script = editScript(a.map(key), b.map(key), DIFF_EDIT_LIMIT);
  if (!script) return merged([{ kind: 'extra', text: typed }, { kind: 'missing', text: expected }]);
  const segments = [];
  let i = 0;
  let j = 0;
  for (const step of script) {
    if (step === 'same') { segments.push({ kind: 'same', text: a[i] }); i += 1; j += 1; }
    else if (step === 'delete') { segments.push({ kind: 'extra', text: a[i] }); i += 1; }
    else { segments.push({ kind: 'missing', text: b[j] }); j += 1; }
  }
  return merged(segments);
}

/** {verdict: correct | close | wrong, diff} of `typed` against `expected` (AnswerCheck.check). */
export function checkAnswer(typed, expected, ignoringDiacritics = false) {
  const a = normalized(typed, ignoringDiacritics);
  const b = normalized(expected, ignoringDiacritics);
  const runs = diff(typed, expected, ignoringDiacritics);
  if (b && (a === b || a.replaceAll(' ', '') === b.replaceAll(' ', ''))) return { verdict: 'correct', diff: runs };
  const comparedA = characters(a).slice(0, COMPARED_LENGTH);
  const comparedB = characters(b).slice(0, COMPARED_LENGTH);
  const allowed = Math.max(1, Math.floor(comparedB.length / 5));
  const distance = editDistance(comparedA, comparedB, allowed);
  const close = a.length > 0 && characters(b).length >= 2 && answerKind(expected) !== 'numeric'
    && distance !== null && distance <= allowed;
  return { verdict: close ? 'close' : 'wrong', diff: runs };
}

/** SplitMix64: the same sequence as the server's for the same seed (a BigInt). */
export class SplitMix64 {
  constructor(seed) { this.state = BigInt.asUintN(64, seed); }

  next() {
    this.state = (this.state + 0x9E3779B97F4A7C15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xBF58476D1CE4E5B9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94D049BB133111EBn) & MASK;
    return z ^ (z >> 31n);
  }
}

/**
 * The quiz question of a multiple-choice card (QuizOptions.question(answer:ownChoices:seed:)): its
 * `answer` among up to three of its own wrong `choices`, picked and placed by `seed` (a BigInt).
 */
export function ownChoicesQuestion(answer, choices, seed) {
  const random = new SplitMix64(seed);
  const pool = [...choices];
  const picked = [];
  while (picked.length < DISTRACTORS && pool.length) picked.push(pool.splice(Number(random.next() % BigInt(pool.length)), 1)[0]);
  const correctIndex = Number(random.next() % BigInt(picked.length + 1));
  picked.splice(correctIndex, 0, answer);
  return { choices: picked, correctIndex };
}

/** The question of a true/false card (QuizOptions.trueFalseQuestion): "Wahr", then "Falsch". */
export function trueFalseQuestion(isTrue) {
  return { choices: [...CORE.quiz.truthWords], correctIndex: isTrue ? 0 : 1 };
}

/**
 * A quiz question (QuizOptions.question): `answer` among up to three `candidates` ({number, answer}:
 * other cards of the stack), similar in length and kind; `seed` (a BigInt) makes it repeatable.
 * Resolves with {choices, correctIndex}.
 */
export function quizQuestion(answer, candidates, seed) {
  const key = normalized(answer, true);
  const kind = answerKind(answer);
  const length = characters(answer).length;
  const random = new SplitMix64(seed);
  const seen = new Set([key]);
  const scored = [];
  for (const candidate of candidates) {
    const candidateKey = normalized(candidate.answer, true);
    if (!candidateKey || seen.has(candidateKey)) continue;
    seen.add(candidateKey);
    const otherLength = characters(candidate.answer).length;
    const lengthScore = Math.abs(otherLength - length) / Math.max(length, otherLength, 1);
    const kindPenalty = answerKind(candidate.answer) === kind ? 0 : 1;
    const draw = new SplitMix64(seed ^ BigInt.asUintN(64, BigInt(candidate.number)));
    scored.push({ score: lengthScore + kindPenalty, tieBreak: draw.next(), answer: candidate.answer, rendered: candidate.rendered ?? null });
  }
  scored.sort((x, y) => (x.score !== y.score ? x.score - y.score : x.tieBreak < y.tieBreak ? -1 : x.tieBreak > y.tieBreak ? 1 : 0));
  const picked = scored.slice(0, DISTRACTORS);
  const choices = picked.map((s) => s.answer);
  // As the server's `renderedChoices`: a rich distractor's HTML, null for plain words and the answer.
  const renderedChoices = picked.map((s) => s.rendered);
  const correctIndex = Number(random.next() % BigInt(choices.length + 1));
  choices.splice(correctIndex, 0, answer);
  renderedChoices.splice(correctIndex, 0, null);
  return { choices, correctIndex, renderedChoices };
}

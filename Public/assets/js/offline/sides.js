// A card's sides as the learner sees them, computed in the browser (for a card edited offline, and
// the card form's gap checks): the rules of CardSides and Cloze in FlashcardsCore
// (docs/card-kinds.md), which the server applies to every card it sends (`shown`). Checked against
// the server's in e2e/web/test_card_kinds.py and against Core's fixtures in Tests/js/parity.test.mjs.
import CORE from './core-constants.js';

/** "Wahr" / "Falsch", a true/false card's answers (CardSides.truthWord). */
export const truthWord = (isTrue) => CORE.quiz.truthWords[isTrue ? 0 : 1];

/** The gaps of a cloze text: {number, answer, hint, start, end}; braces inside a gap belong to it. */
export function clozeGaps(text) {
  const gaps = [];
  let cursor = 0;
  for (;;) {
    const open = text.indexOf('{{c', cursor);
    if (open < 0) break;
    const close = closingBraces(text, open + 3);
    if (close < 0) break;
    const inner = text.slice(open + 3, close);
    const digits = /^[0-9]*/.exec(inner)[0];
    const number = Number(digits);
    const rest = inner.slice(digits.length);
    if (digits && number >= 1 && number <= 999 && rest.startsWith('::')) {
      const body = rest.slice(2);
      const split = body.indexOf('::');
      gaps.push({
        number, answer: split < 0 ? body : body.slice(0, split), hint: split < 0 ? null : body.slice(split + 2),
        start: open, end: close + 2,
      });
      cursor = close + 2;
    } else {
      cursor = open + 1;
    }
  }
  return gaps;
}

function closingBraces(text, from) {
  let depth = 0;
  for (let i = from; i < text.length;) {
    if (text.startsWith('{{', i)) { depth += 1; i += 2; }
    else if (text.startsWith('}}', i)) { if (depth === 0) return i; depth -= 1; i += 2; }
    else i += 1;
  }
  return -1;
}

function clozeSide(text, number, revealed, bold) {
  let out = '';
  let cursor = 0;
  for (const gap of clozeGaps(text)) {
    out += text.slice(cursor, gap.start);
    if (gap.number !== number) out += gap.answer;
    else if (revealed) out += bold ? `**${gap.answer}**` : gap.answer;
    else out += `[${gap.hint ?? '…'}]`;
    cursor = gap.end;
  }
  return out + text.slice(cursor);
}

function filledBlank(text, answer, bold) {
  const match = /_{3,}/.exec(text);
  if (!match) return text;
  return text.slice(0, match.index) + (bold ? `**${answer}**` : answer) + text.slice(match.index + match[0].length);
}

/** The sides {question, answer, expected} of `card` ({kind, variant, question, answer, format}), or
 * null for a basic card (whose sides are its texts). `plainText` turns a rich text into its words. */
export function cardSides(card, plainText = (text) => text) {
  const kind = card.kind ?? 'basic';
  if (kind === 'basic') return null;
  const bold = card.format === 'markdown';
  const plain = bold ? plainText : (text) => text;
  const { question, answer } = card;
  switch (kind) {
    case 'reversed': {
      const flipped = card.variant === 1;
      const back = flipped ? question : answer;
      return { question: flipped ? answer : question, answer: back, expected: plain(back) };
    }
    case 'cloze': {
      const revealed = clozeSide(question, card.variant, true, bold);
      const extra = answer.trim();
      return {
        question: clozeSide(question, card.variant, false, bold),
        answer: extra ? `${revealed}\n\n${extra}` : revealed,
        expected: plain(clozeGaps(question).filter((g) => g.number === card.variant).map((g) => g.answer).join(', ')),
      };
    }
    case 'trueFalse': {
      const word = truthWord(answer === 'true');
      return { question, answer: word, expected: word };
    }
    case 'fillBlank':
      return { question, answer: filledBlank(question, answer, bold), expected: plain(answer) };
    default: // multipleChoice
      return { question, answer, expected: plain(answer) };
  }
}

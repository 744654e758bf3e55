// How a checked answer relates to a rich card (quiz choices, write mode's expected answer).

import { answerWords } from '../../rich-text.js';

/** A text as compared with a choice's: whitespace runs as one space. */
const spaced = (text) => String(text ?? '').replace(/\s+/g, ' ').trim();

/** Whether `text` (a quiz choice, the checked answer) is the rich `card`'s answer as its words,
 * so the answer can be shown rendered in its place. */
export const isAnswerOf = (card, text) => card?.format === 'markdown' && card.kind !== 'trueFalse'
  && spaced(answerWords(card)) === spaced(text);

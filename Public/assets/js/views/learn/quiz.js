// Quiz mode of a study session: one of up to four answers, picked by a tap or the keys 1…n. The
// answer counts at once (first try); "continue" only moves on. Renderer and key handling only.

import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import { icon } from '../../ui.js';
import { readableText, setCardLine, setRichLine } from '../../rich-text.js';
import { isAnswerOf } from './answer.js';

export class QuizMode {
  constructor(screen) {
    this.screen = screen;
    this.choices = screen.$('#choices');
  }

  listen(signal) {
    const { screen } = this;
    this.choices.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-index]');
      if (button) this.choose(Number(button.dataset.index));
    }, { signal });
    screen.$('#continue').addEventListener('click', () => screen.continueAfterAnswer(), { signal });
  }

  /** A choice as shown: a true/false card's two words in the app's language. */
  #choiceTexts() {
    const { state } = this.screen.session.item;
    return state.choices.map((choice, i) => (state.card?.kind === 'trueFalse' ? t(i === 0 ? 'kind.true' : 'kind.false') : choice));
  }

  show() {
    const { screen } = this;
    const { state } = screen.session.item;
    const choices = this.#choiceTexts();
    const fewer = screen.$('#fewer');
    // A true/false or multiple-choice card has the options it was made with: nothing is missing.
    const own = ['trueFalse', 'multipleChoice'].includes(state.card?.kind);
    fewer.hidden = !state.fewerChoices || own;
    fewer.textContent = state.fewerChoices ? t('quiz.fewer', { count: choices.length }) : '';
    render(this.choices, html`${choices.map((choice, i) => html`
      <button type="button" class="btn choice" data-index="${i}"><kbd aria-hidden="true">${i + 1}</kbd><span class="choice-text">${choice}</span></button>`)}`);
    this.#renderChoices(state);
    screen.$('#feedback').textContent = '';
    screen.$('#after-answer').hidden = true;
    screen.$('#keys').textContent = t('quiz.keys', { keys: `1–${choices.length}` });
  }

  focusTarget() { return this.screen.card; }

  /** Nothing was stored: the learner may choose again. */
  sendFailed() {
    this.screen.answered = null;
    this.show();
  }

  /** Renders the choices that are rich cards' answers (formulas typeset inline): the HTML the
   * server (or the local copy, offline) sends in `renderedChoices`, and the asked card's own
   * answer from the card. The others stay plain words. */
  #renderChoices(state) {
    const { card: asked } = state;
    if (asked?.kind === 'trueFalse') return;
    this.choices.querySelectorAll('.choice-text').forEach((span, i) => {
      const rendered = state.renderedChoices?.[i];
      if (typeof rendered === 'string' && rendered) setRichLine(span, rendered);
      else if (i === state.correctIndex && isAnswerOf(asked, state.choices[i])) setCardLine(span, asked, 'answer', { images: 'none' });
    });
  }

  /** A choice as words for labels and announcements (a rendered formula as readable symbols). */
  #choiceWords(i, fallback) {
    const span = this.choices.querySelectorAll('.choice-text')[i];
    return span?.classList.contains('rich-line') ? readableText(span) : fallback;
  }

  /** Marks the chosen and the right answer: colour, a tick or circling arrows ("comes again"). */
  #mark(index, correctIndex, choices) {
    [...this.choices.querySelectorAll('.choice')].forEach((b, i) => {
      b.disabled = true;
      if (i === correctIndex) b.classList.add('is-correct');
      if (i === index && index !== correctIndex) b.classList.add('is-wrong');
      if (i !== correctIndex && i !== index) return;
      b.setAttribute('aria-label', `${this.#choiceWords(i, choices[i])}: ${t(i === correctIndex ? 'quiz.correctMark' : 'quiz.wrongMark')}`);
      const mark = document.createElement('span');
      mark.className = 'choice-mark';
      render(mark, icon(i === correctIndex ? 'check' : 'flip'));
      b.append(mark);
    });
  }

  async choose(index) {
    const { screen } = this;
    const { correctIndex, ratingIfRight, ratingIfWrong } = screen.session.item.state;
    const choices = this.#choiceTexts();
    if (screen.busy || screen.answered || index < 0 || index >= choices.length) return;
    const right = index === correctIndex;
    this.#mark(index, correctIndex, choices);
    const feedback = screen.$('#feedback');
    feedback.textContent = right ? t('quiz.right') : t('quiz.wrong', { answer: this.#choiceWords(correctIndex, choices[correctIndex]) });
    feedback.dataset.kind = right ? 'right' : 'wrong';
    screen.answered = right ? ratingIfRight : ratingIfWrong;
    if (await screen.send(screen.answered)) {
      screen.$('#after-answer').hidden = false;
      screen.$('#continue').focus();
      screen.$('#keys').textContent = t('quiz.keysContinue');
    }
  }

  onKey(event) {
    if (/^[1-9]$/.test(event.key) && !this.screen.answered) {
      event.preventDefault();
      this.choose(Number(event.key) - 1);
    }
  }
}

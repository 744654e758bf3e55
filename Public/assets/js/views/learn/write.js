// Write mode of a study session: the learner types the answer; the check's verdict shows a near
// miss as a character diff, an answer far off above the right one. "Continue" sends the rating
// ("I was right" the better one). Renderer and form handling only; the state stays with the screen.

import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import { fieldError, icon } from '../../ui.js';
import { expectedAnswer, setCardLine } from '../../rich-text.js';
import { isAnswerOf } from './answer.js';
import { DIACRITICS } from './markup.js';

/** A typed answer's diff against the card's: kept runs plain, extra ones struck through, missing
 * ones underlined; screen readers hear what each run is. */
const diffMarkup = (diff) => html`${diff.map((run) => run.kind === 'same'
  ? html`<span class="diff-same">${run.text}</span>`
  : html`<span class="diff-${run.kind}"><span class="visually-hidden">${t(`write.diff.${run.kind}`)}: </span>${run.text}</span>`)}`;

const expectedMarkup = (expected) => html`
          <p class="small muted">${t('write.expected')}</p>
          <p class="expected" id="write-expected">${expected}</p>`;

/** The check's result: a near miss (within the check's typo tolerance) as the character diff, an
 * answer far off as the learner's and the right one one above the other, else the right one. */
function resultMarkup(result, typed) {
  const verdict = html`<p class="verdict verdict-${result.verdict}">${icon(result.verdict === 'wrong' ? 'flip' : 'check')}<span>${t(`write.verdict.${result.verdict}`)}</span></p>`;
  if (result.verdict === 'close' && Array.isArray(result.diff)) {
    return html`${verdict}
          <p class="diff-label small muted">${t('write.yourAnswer')}</p>
          <p class="diff" lang="">${diffMarkup(result.diff)}</p>
          ${expectedMarkup(result.expected)}`;
  }
  if (result.verdict === 'wrong' && typed !== null) {
    return html`${verdict}
          <dl class="write-compare" id="write-compare">
            <div class="compare-row compare-yours">
              <dt>${icon('flip')}<span>${t('write.compare.yours')}</span></dt>
              <dd class="compare-text" lang="">${typed.trim()}</dd>
            </div>
            <div class="compare-row compare-right">
              <dt>${icon('check')}<span>${t('write.compare.right')}</span></dt>
              <dd class="compare-text expected" id="write-expected">${result.expected}</dd>
            </div>
          </dl>`;
  }
  return html`${verdict}${expectedMarkup(result.expected)}`;
}

export class WriteMode {
  constructor(screen) {
    this.screen = screen;
    this.input = screen.$('#answer-input');
    this.form = screen.$('#write-form');
    this.result = screen.$('#write-result');
  }

  listen(signal) {
    const { screen, input } = this;
    this.form.addEventListener('submit', (event) => { event.preventDefault(); this.check(input.value); }, { signal });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); this.check(input.value); }
    }, { signal });
    input.addEventListener('input', () => fieldError(input, ''), { signal });
    screen.$('#dont-know').addEventListener('click', () => this.check(null), { signal });
    screen.$('#override').addEventListener('click', () => screen.continueAfterAnswer(this.result.dataset.rightRating), { signal });
    screen.$('#continue').addEventListener('click', () => screen.continueAfterAnswer(), { signal });
  }

  show() {
    const { screen, input } = this;
    this.form.hidden = false;
    this.result.hidden = true;
    screen.$('#after-answer').hidden = true;
    screen.$('#feedback').textContent = '';
    input.value = '';
    fieldError(input, '');
    input.disabled = false;
    screen.$('#keys').textContent = t('write.keys');
    input.focus({ preventScroll: true });
  }

  focusTarget() { return this.input; }

  /** Checks `typed` (null: "I don't know") and shows the verdict. */
  async check(typed) {
    const { screen, input } = this;
    if (screen.busy || screen.answered) return;
    if (typed !== null && !typed.trim()) {
      fieldError(input, t('write.empty'));
      input.focus();
      return;
    }
    fieldError(input, '');
    screen.busy = true;
    const button = screen.$('#check');
    button.disabled = true;
    try {
      this.#showResult(await this.#verdict(typed), typed);
    } catch (error) {
      if (error.status !== 401) screen.showError(error, 'write.checkError');
    } finally {
      screen.busy = false;
      button.disabled = false;
    }
  }

  async #verdict(typed) {
    const ignore = this.screen.$('#ignore-diacritics').checked;
    localStorage.setItem(DIACRITICS, ignore ? '1' : '0');
    if (typed === null) {
      const { card } = this.screen.session.item.state;
      return { verdict: 'wrong', expected: expectedAnswer(card), diff: null, rating: null, ratingIfRight: null };
    }
    return this.screen.session.check(typed, ignore);
  }

  #showResult(result, typed) {
    const { screen } = this;
    const { card: asked } = screen.session.item.state;
    const wrongRating = screen.session.stack.scheduler === 'ladder' ? 'hard' : 'again';
    screen.answered = result.rating || wrongRating;
    screen.card.reveal();
    this.form.hidden = true;
    render(this.result, resultMarkup(result, typed));
    // A rich card's answer rendered (formulas typeset) where its words were checked.
    if (isAnswerOf(asked, result.expected)) setCardLine(this.result.querySelector('#write-expected'), asked, 'answer', { images: 'none' });
    this.result.hidden = false;
    screen.$('#feedback').textContent = t(`write.verdict.${result.verdict}`);
    screen.$('#override').hidden = result.verdict === 'correct' || typed === null;
    this.result.dataset.rightRating = result.ratingIfRight || '';
    screen.$('#after-answer').hidden = false;
    screen.$('#continue').focus();
    screen.$('#keys').textContent = t('write.keysContinue');
  }
}

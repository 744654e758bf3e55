// A study session's screen (views/learn.js): the one owner of its state (busy, the answer given,
// the last rate answer) over a StudySession. It draws the page, shows the status and the card on
// screen, sends ratings, moves on, undoes, and hands the mode's own part to a renderer per mode
// (flashcards.js, quiz.js, write.js) and the end of the session to end.js. Every listener it adds
// ends with `stop()` (the router's clean-up), which also closes the study partner on the current
// card (partner-panel.js) and ends its answer.

import { render } from '../../html.js';
import { t } from '../../i18n.js';
import { errorText, toast } from '../../ui.js';
import { pageMarkup } from './markup.js';
import { FlashcardsMode } from './flashcards.js';
import { QuizMode } from './quiz.js';
import { WriteMode } from './write.js';
import { SessionEnd } from './end.js';

const MODES = { flashcards: FlashcardsMode, quiz: QuizMode, write: WriteMode };

export class LearnScreen {
  /** Whether a request runs (keys and buttons wait for it). */
  busy = false;
  /** Quiz and write: the rating to send on "continue" (write), or null before an answer. */
  answered = null;
  /** The last rate answer (its `next` saves a request). */
  lastResult = null;
  /** The study partner's panel last opened (on one card). */
  partner = null;
  #controller = new AbortController();

  constructor(root, session, { mode, stackId }) {
    this.root = root;
    this.session = session;
    this.mode = mode;
    this.stackId = stackId;
    this.backUrl = stackId ? `/app/stacks/${stackId}` : '/app/stacks';
  }

  /** The signal that ends every listener of this screen. */
  get signal() { return this.#controller.signal; }

  $(selector) { return this.root.querySelector(selector); }

  /** Draws the page and shows the first card; returns the clean-up. */
  start() {
    render(this.root, pageMarkup({ mode: this.mode, stackId: this.stackId, stack: this.session.stacks[0], backUrl: this.backUrl }));
    this.card = this.$('#card');
    this.rateError = this.$('#rate-error');
    this.undoButton = this.$('#undo');
    this.view = new MODES[this.mode](this);
    this.end = new SessionEnd(this);
    const { signal } = this;
    this.undoButton.addEventListener('click', () => this.undo(), { signal });
    this.view.listen(signal);
    this.end.listen(signal);
    document.addEventListener('keydown', (event) => this.#onKey(event), { signal });
    this.show();
    return () => this.stop();
  }

  stop() {
    this.#controller.abort();
    this.end.close();
  }

  updateStatus() {
    const { session } = this;
    const total = session.total;
    const position = session.card ? session.reviews + 1 : session.reviews;
    this.$('#position').textContent = total ? t('learn.position', { n: Math.min(position, total), total }) : '';
    this.$('#counter').textContent = t('learn.studied', {
      cards: t('learn.cards', { count: session.cards }), reviews: t('learn.reviews', { count: session.reviews }),
    });
    this.$('#remaining').textContent = session.card ? t('learn.remaining', { count: session.dueLeft }) : '';
    const percent = total === 0 ? 100 : Math.round((session.reviews / total) * 100);
    this.$('#progress-bar').style.width = `${percent}%`;
    this.$('#progress').setAttribute('aria-valuenow', String(percent));
    this.$('#ahead').hidden = session.daysAhead === 0;
    this.$('#ahead').textContent = t('learn.aheadBadge', { count: session.daysAhead });
    this.undoButton.hidden = !session.canUndo;
  }

  /** Shows the session's current card (or the end of the session when there is none). */
  show() {
    this.updateStatus();
    this.rateError.hidden = true;
    this.answered = null;
    const { session } = this;
    if (!session.card) { this.end.show(); return; }
    this.$('#stage').hidden = false;
    this.$('#finished').hidden = true;
    const from = this.$('#from-stack');
    from.hidden = !session.allStacks;
    from.textContent = session.allStacks ? t('study.fromStack', { name: session.stack.name }) : '';
    this.card.hintsEnabled = session.stack.hintsEnabled !== false;
    this.card.show(session.card);
    this.view.show();
  }

  /** Shows an error over the controls (`key`: the sentence before the error's own). */
  showError(error, key) {
    this.rateError.textContent = key ? `${t(key)} ${errorText(error)}` : errorText(error);
    this.rateError.hidden = false;
  }

  /** Sends `rating` for the card on screen; resolves true when it was stored. */
  async send(rating) {
    this.busy = true;
    this.rateError.hidden = true;
    const group = this.root.querySelector('#ratings, #choices, #after-answer');
    group?.setAttribute('aria-busy', 'true');
    try {
      this.lastResult = await this.session.rate(rating);
      this.updateStatus();
      return true;
    } catch (error) {
      if (error.status === 401) return false;
      this.showError(error, 'learn.error');
      this.view.sendFailed?.();
      return false;
    } finally {
      this.busy = false;
      group?.removeAttribute('aria-busy');
    }
  }

  /** After an answer: the next card (a rate answer's `next` saves a request). */
  async moveOn(next) {
    this.busy = true;
    try {
      await this.session.advance(next);
      this.show();
      if (this.session.card) this.view.focusTarget().focus({ preventScroll: true });
    } catch (error) {
      if (error.status !== 401) this.showError(error);
    } finally {
      this.busy = false;
    }
  }

  /** Quiz and write: "continue" (write sends its rating first, `rating` when overridden). */
  async continueAfterAnswer(rating) {
    if (this.busy || !this.answered) return;
    if (this.mode === 'write' && !(await this.send(rating || this.answered))) return;
    await this.moveOn(this.mode === 'write' ? this.lastResult.next : null);
  }

  async undo() {
    if (this.busy || !this.session.canUndo) return;
    this.busy = true;
    this.undoButton.disabled = true;
    try {
      await this.session.undo();
      this.end.close();
      this.show();
      this.card.focus({ preventScroll: true });
      toast(t('learn.undone'));
    } catch (error) {
      if (error.status !== 401) this.showError(error, 'learn.undoError');
    } finally {
      this.busy = false;
      this.undoButton.disabled = false;
    }
  }

  /** The study partner on the card on screen; the same card's conversation goes on where it was. */
  async openPartner(button) {
    const { stack, card } = this.session;
    if (!card || !stack) return;
    const { PartnerPanel } = await import('../../partner-panel.js');
    if (this.signal.aborted || this.session.card !== card) return;
    if (!this.partner?.isAbout(stack.id, card.id)) {
      this.partner?.destroy();
      this.partner = new PartnerPanel({ stack, card, signal: this.signal });
    }
    await this.partner.open(button);
  }

  /** The session's keys: U undoes; the mode has the rest (reveal, 1…n). Not while a dialog (the
   * study partner) has them. */
  #onKey(event) {
    if (this.end.isOpen || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.('dialog')) return;
    if (event.target.closest('input, textarea, select, [contenteditable]')) return;
    if ((event.key === 'u' || event.key === 'U') && this.session.canUndo) {
      event.preventDefault();
      this.undo();
      return;
    }
    this.view.onKey?.(event);
  }
}

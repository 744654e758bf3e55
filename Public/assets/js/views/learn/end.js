// The end of a study session: an empty stack's next step, or "done" with the summary dialog
// (<dialog id="done">): another round when the chosen size was reached, learning ahead by days,
// undo of the last rating. Works on the screen's session; the state stays with the screen.

import { html, render } from '../../html.js';
import { formatRelativeDay, t } from '../../i18n.js';
import { errorText, icon } from '../../ui.js';
import { summaryMarkup } from '../../session-summary.js';
import { leaveLink } from './markup.js';

const emptyStackMarkup = (backUrl) => html`
        <div class="state state-empty">
          <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
          <p class="empty-title">${t('learn.emptyStack')}</p>
          <p class="muted">${t('learn.emptyStackText')}</p>
          <a class="btn btn-primary" href="${backUrl}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>
        </div>`;

const doneMarkup = ({ title, studied, nextText, leave }) => html`
      <div class="state state-done">
        <span class="success-icon" aria-hidden="true">${icon('check')}</span>
        <p class="empty-title">${title}</p>
        <p class="muted">${[studied, nextText].filter(Boolean).join(' · ')}</p>
        <div class="form-actions">
          <a class="btn btn-secondary" href="${leave.href}">${leave.label}</a>
          <button type="button" class="btn btn-primary" id="reopen">${t('learn.summary')}</button>
        </div>
      </div>`;

export class SessionEnd {
  constructor(screen) {
    this.screen = screen;
    this.dialog = screen.$('#done');
    this.finished = screen.$('#finished');
  }

  get isOpen() { return this.dialog.open; }

  close() {
    if (this.dialog.open) this.dialog.close();
  }

  listen(signal) {
    const { screen } = this;
    screen.$('#more').addEventListener('click', () => this.#more(), { signal });
    screen.$('#done-undo').addEventListener('click', () => screen.undo(), { signal });
    screen.$('#ahead-form').addEventListener('submit', (event) => this.#ahead(event), { signal });
    this.finished.addEventListener('click', (event) => {
      if (event.target.closest('#reopen')) this.dialog.showModal();
    }, { signal });
  }

  /** Shows the end: the empty stack's next step, or the summary (the dialog opens with it). */
  show() {
    const { screen } = this;
    const { session } = screen;
    screen.$('#stage').hidden = true;
    if (screen.stackId && session.stacks[0].cardCount === 0 && session.reviews === 0 && !session.nextDueAt) {
      render(this.finished, emptyStackMarkup(screen.backUrl));
      this.finished.hidden = false;
      return;
    }
    const bySize = session.full && session.dueLeft > 0;
    const nextText = !bySize && session.nextDueAt ? t('learn.nextDue', { date: formatRelativeDay(session.nextDueAt) }) : '';
    const title = this.#fillDialog(bySize, nextText);
    const studied = session.reviews ? t('learn.studied', {
      cards: t('learn.cards', { count: session.cards }), reviews: t('learn.reviews', { count: session.reviews }),
    }) : '';
    render(this.finished, doneMarkup({ title, studied, nextText, leave: leaveLink(screen.stackId, screen.backUrl) }));
    this.finished.hidden = false;
    if (!this.dialog.open) this.dialog.showModal();
    if (bySize) screen.$('#more').focus();
  }

  /** Fills the dialog in; returns its title. */
  #fillDialog(bySize, nextText) {
    const { screen } = this;
    const { session } = screen;
    const byDays = session.daysAhead > 0 ? t('learn.doneAheadText', { count: session.daysAhead }) : t('learn.doneText');
    const title = t(session.reviews ? (bySize ? 'learn.doneSizeTitle' : 'learn.doneTitle') : 'learn.nothingTitle');
    screen.$('#done-title').textContent = title;
    screen.$('#done-text').textContent = bySize ? t('learn.doneSizeText', { count: session.dueLeft }) : byDays;
    render(screen.$('#summary'), session.reviews ? summaryMarkup(session) : html``);
    screen.$('#done-next').textContent = nextText;
    const more = screen.$('#more');
    more.hidden = !bySize;
    // One primary action: going on when there is more, else back to the stack.
    const leave = screen.$('#to-dashboard');
    leave.classList.toggle('btn-primary', !bySize);
    leave.classList.toggle('btn-secondary', bySize);
    more.textContent = bySize ? t('learn.more', { count: Math.min(session.baseSize, session.dueLeft) }) : '';
    screen.$('#ahead-form').hidden = bySize;
    screen.$('#done-undo').hidden = !session.canUndo;
    return title;
  }

  /** Another round of the chosen size. */
  async #more() {
    const { screen } = this;
    this.dialog.close();
    screen.busy = true;
    try { await screen.session.more(); } catch (error) { if (error.status !== 401) screen.rateError.textContent = errorText(error); }
    screen.busy = false;
    screen.show();
  }

  /** Learning ahead: the cards due within the days asked for. */
  async #ahead(event) {
    event.preventDefault();
    const { screen } = this;
    const input = screen.$('#ahead-days');
    const error = screen.$('#ahead-error');
    const days = Number(input.value);
    const invalid = !Number.isInteger(days) || days < 1 || days > 3650;
    error.textContent = t('learn.aheadInvalid');
    error.hidden = !invalid;
    input.toggleAttribute('aria-invalid', invalid);
    if (invalid) { input.focus(); return; }
    const button = event.target.querySelector('button');
    button.disabled = true;
    try {
      await screen.session.learnAhead(days);
      this.dialog.close();
      screen.show();
      if (screen.session.card) screen.card.focus({ preventScroll: true });
    } catch (failure) {
      if (failure.status !== 401) {
        error.textContent = errorText(failure);
        error.hidden = false;
      }
    } finally {
      button.disabled = false;
    }
  }
}

// Flashcards mode of a study session: Space/Enter or a tap reveals the answer, a <rating-bar>
// (or the keys 1…n) rates it; once revealed, "Lernpartner" opens the study partner on the card.
// Renderer and key handling only; the state stays with the screen.

import { t } from '../../i18n.js';

export class FlashcardsMode {
  constructor(screen) {
    this.screen = screen;
    this.ratings = screen.$('#ratings');
    this.revealButton = screen.$('#reveal');
    this.partnerButton = screen.$('#partner-open');
  }

  listen(signal) {
    this.screen.card.addEventListener('reveal-request', () => this.reveal(), { signal });
    this.revealButton.addEventListener('click', () => this.reveal(), { signal });
    this.ratings.addEventListener('rate', (event) => this.rate(event.detail.index), { signal });
    this.partnerButton.addEventListener('click', () => this.screen.openPartner(this.partnerButton), { signal });
  }

  show() {
    const { options } = this.screen.session.item.state;
    this.revealButton.hidden = false;
    this.ratings.hidden = true;
    this.partnerButton.hidden = true;
    this.ratings.options = options;
    this.screen.$('#keys').textContent = t('learn.keys', { keys: `1–${options.length}` });
  }

  focusTarget() { return this.screen.card; }

  reveal() {
    const { card, session } = this.screen;
    if (card.revealed || !session.card) return;
    const hadFocus = document.activeElement === this.revealButton;
    card.reveal();
    this.revealButton.hidden = true;
    this.ratings.hidden = false;
    this.partnerButton.hidden = false;
    if (hadFocus) this.ratings.focusFirst();
  }

  /** Rates with the option at `index` and moves on to the next card. */
  async rate(index) {
    const { screen } = this;
    const option = screen.session.item?.state.options[index];
    if (screen.busy || !screen.card.revealed || !option) return;
    this.ratings.disabled = true;
    if (await screen.send(option.rating)) await screen.moveOn(screen.lastResult.next);
    else this.ratings.disabled = false;
  }

  onKey(event) {
    const { card, session } = this.screen;
    if ((event.key === ' ' || event.key === 'Enter') && !card.revealed && session.card) {
      if (event.target.closest('a, button:not(#reveal)')) return;
      event.preventDefault();
      this.reveal();
    } else if (/^[1-9]$/.test(event.key) && card.revealed) {
      event.preventDefault();
      this.rate(Number(event.key) - 1);
    }
  }
}

// <flip-card>: the learning card. Front: question (and an optional hint); back: the answer.
// `hintsEnabled = false` (a stack with hints switched off) never offers the hint button.
// `show(card)` puts a new card face up without animation; `reveal()` flips it (animated unless
// the user prefers reduced motion, see the CSS). The answer is written into an aria-live region
// at reveal time, so screen readers announce it.

import { html, render } from '../../js/html.js';
import { t } from '../../js/i18n.js';
import { icon, loadStylesheet } from '../../js/ui.js';
import { setCardText } from '../../js/rich-text.js';

/** The iOS app strips a leading "Hinweis:"; so do we. */
const cleanHint = (hint) => (hint || '').replace(/^\s*(Hinweis|Hint)\s*:\s*/i, '').trim();

class FlipCard extends HTMLElement {
  #card = null;
  #revealed = false;
  /** Whether the stack shows hints; set before `show()`. */
  hintsEnabled = true;

  connectedCallback() {
    if (this.firstChild) return;
    this.setAttribute('tabindex', '-1');
    render(this, html`
      <div class="flip-inner">
        <div class="face face-front" data-face="front">
          <span class="face-label">${t('learn.question')}</span>
          <button type="button" class="btn btn-ghost btn-sm hint-button" data-hint hidden>${icon('bulb')}<span>${t('learn.hint')}</span></button>
          <div class="face-text" data-question></div>
          <div class="hint-text" data-hint-text aria-live="polite"></div>
          <span class="flip-cue" aria-hidden="true">${icon('flip')}<span class="hide-touch">${t('learn.revealHelp')}</span><span class="show-touch">${t('learn.revealHelpTouch')}</span></span>
        </div>
        <div class="face face-back" data-face="back" aria-hidden="true" inert>
          <span class="face-label">${t('learn.answer')}</span>
          <div class="face-question" data-question-small></div>
          <div class="face-text face-answer" data-answer aria-live="polite"></div>
        </div>
      </div>`);
    this.querySelector('[data-hint]').addEventListener('click', (event) => {
      event.stopPropagation();
      const text = this.querySelector('[data-hint-text]');
      if (this.#card?.format === 'markdown') setCardText(text, this.#card, 'hint');
      else text.textContent = cleanHint(this.#card?.hint);
      event.currentTarget.hidden = true;
      text.classList.add('is-visible');
    });
    this.addEventListener('click', (event) => {
      if (event.target.closest('button')) return;
      if (!this.#revealed && this.#card) this.dispatchEvent(new CustomEvent('reveal-request', { bubbles: true }));
    });
  }

  get revealed() { return this.#revealed; }

  /** Shows `card` question-side up, instantly. */
  show(card) {
    this.#card = card;
    this.#revealed = false;
    this.classList.add('no-anim');
    this.classList.remove('is-flipped');
    setCardText(this.querySelector('[data-question]'), card, 'question');
    setCardText(this.querySelector('[data-question-small]'), card, 'question');
    this.querySelector('[data-answer]').textContent = '';
    const hintText = this.querySelector('[data-hint-text]');
    hintText.textContent = '';
    hintText.classList.remove('is-visible');
    this.querySelector('[data-hint]').hidden = !this.hintsEnabled || !cleanHint(card.hint);
    this.#hide('back');
    // Re-enable transitions after this frame so the next reveal animates again.
    requestAnimationFrame(() => requestAnimationFrame(() => this.classList.remove('no-anim')));
  }

  /** Hides a face: `inert` takes its hint button out of the tab order too. */
  #hide(side) {
    for (const face of this.querySelectorAll('[data-face]')) {
      const hidden = face.dataset.face === side;
      face.toggleAttribute('inert', hidden);
      if (hidden) face.setAttribute('aria-hidden', 'true');
      else face.removeAttribute('aria-hidden');
    }
  }

  /** Flips to the answer side. */
  reveal() {
    if (this.#revealed || !this.#card) return;
    this.#revealed = true;
    this.classList.remove('no-anim');
    this.classList.add('is-flipped');
    this.#hide('front');
    setCardText(this.querySelector('[data-answer]'), this.#card, 'answer');
  }
}

/** Defines <flip-card> (once); resolves when its stylesheet applies (it comes with the element,
 * not with the app shell: only a study session uses it). */
export function registerFlipCard() {
  if (!customElements.get('flip-card')) customElements.define('flip-card', FlipCard);
  return loadStylesheet('/assets/components/flip-card/flip-card.css');
}

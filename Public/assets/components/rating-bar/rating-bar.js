// <rating-bar>: the buttons that rate a revealed card, e.g. "Einfach (10 Minuten)" with its key
// (1…n). Properties down, events up: `options` (the rate options of the card on screen: `rating`,
// `label`, `color`, `intervalSeconds`) draws the buttons, `disabled` holds them while a rating is
// sent; a press sends a `rate` event with `detail.index`. The keyboard keys 1…n stay with the
// session (they work wherever the focus is). Light DOM: the app's styles (.ratings, .btn-rate) apply.

import { html, render } from '../../js/html.js';
import { formatInterval, t } from '../../js/i18n.js';

/** The button text, e.g. "Einfach (10 Minuten)": label from our dictionary (the API's German
 * label as fallback), interval formatted from `intervalSeconds` in the current language. */
function optionParts(option) {
  const key = `learn.rating.${option.rating}`;
  const label = t(key) === key ? option.label : t(key);
  return { label, interval: formatInterval(option.intervalSeconds) };
}

class RatingBar extends HTMLElement {
  #options = [];

  connectedCallback() {
    this.classList.add('ratings');
    if (!this.hasAttribute('role')) this.setAttribute('role', 'group');
    this.addEventListener('click', this.#onClick);
  }

  disconnectedCallback() {
    this.removeEventListener('click', this.#onClick);
  }

  get options() { return this.#options; }

  set options(options) {
    this.#options = options || [];
    this.dataset.count = String(this.#options.length);
    render(this, html`${this.#options.map((option, i) => {
      const { label, interval } = optionParts(option);
      return html`
      <button type="button" class="btn btn-rate" data-index="${i}" data-color="${option.color}">
        <span class="rate-label">${label}</span> <span class="rate-interval">(${interval})</span><kbd aria-hidden="true">${i + 1}</kbd>
      </button>`;
    })}`);
  }

  set disabled(disabled) {
    for (const button of this.querySelectorAll('button')) button.disabled = disabled;
  }

  /** Puts the focus on the first rating (after a reveal by the keyboard). */
  focusFirst() {
    this.querySelector('button')?.focus();
  }

  #onClick = (event) => {
    const button = event.target.closest('button[data-index]');
    if (!button || button.disabled) return;
    this.dispatchEvent(new CustomEvent('rate', { detail: { index: Number(button.dataset.index) } }));
  };
}

/** Defines <rating-bar> (once). */
export function registerRatingBar() {
  if (!customElements.get('rating-bar')) customElements.define('rating-bar', RatingBar);
}

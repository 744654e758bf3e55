// <modal-dialog>: a modal dialog that comes with a question and goes with its answer. It holds a
// native <dialog> (focus trapped, Escape closes, the focus returns where it was) in the top layer,
// is added to the page by `openModal()` and removes itself once closed. Properties down, a promise
// up: `done` resolves with what `close(result)` was given, else with the dialog's `returnValue`
// (a `<form method="dialog">` button's value; '' for Escape). Any `[data-cancel]` inside closes it.
// Light DOM: the app's .dialog styles apply.

import { render } from '../../js/html.js';

class ModalDialog extends HTMLElement {
  #dialog = document.createElement('dialog');
  #result;
  #resolve = () => {};
  /** Resolves with the result once the dialog is closed (and gone). */
  done = new Promise((resolve) => { this.#resolve = resolve; });

  connectedCallback() {
    if (this.#dialog.parentNode !== this) this.append(this.#dialog);
  }

  /** The native dialog (its form, fields and buttons are inside). */
  get dialog() { return this.#dialog; }

  /** Fills the dialog: `content` (html``), labelled by the element of `labelledBy`. */
  setContent(content, { labelledBy, describedBy, className = '' } = {}) {
    const dialog = this.#dialog;
    dialog.className = `dialog ${className}`.trim();
    if (labelledBy) dialog.setAttribute('aria-labelledby', labelledBy);
    if (describedBy) dialog.setAttribute('aria-describedby', describedBy);
    render(dialog, content);
  }

  /** Shows it modally (added to the page first). */
  open() {
    const dialog = this.#dialog;
    if (!this.isConnected) document.body.append(this);
    dialog.addEventListener('click', (event) => {
      if (event.target.closest('[data-cancel]')) this.close();
    });
    dialog.addEventListener('close', () => {
      this.remove();
      this.#resolve(this.#result ?? dialog.returnValue);
    }, { once: true });
    dialog.showModal();
  }

  /** Closes it; `done` resolves with `result`. */
  close(result) {
    this.#result = result;
    if (this.#dialog.open) this.#dialog.close();
  }
}

/** Defines <modal-dialog> (once). */
function registerModalDialog() {
  if (!customElements.get('modal-dialog')) customElements.define('modal-dialog', ModalDialog);
}

/** Opens `content` in a new <modal-dialog> (options: labelledBy, describedBy, className); returns
 * the element: its `dialog` to wire, its `done` to await. */
export function openModal(content, options) {
  registerModalDialog();
  const modal = document.createElement('modal-dialog');
  modal.setContent(content, options);
  modal.open();
  return modal;
}

// The card form's preview of a rich card (views/card-form.js), rendered by the server as the card
// will be, shortly after typing. It owns its timer and request: destroy() ends both.

import { t } from '../../i18n.js';
import { api } from '../../api/client.js';
import { setRichHTML } from '../../rich-text.js';

const DELAY_MS = 250;

export class CardPreview {
  /** `root`: the page (#preview…); `fields`: {question, answer, rich} of the form. */
  constructor(root, fields) {
    this.section = root.querySelector('#preview');
    this.status = root.querySelector('#preview-status');
    this.faces = [root.querySelector('#preview-question'), root.querySelector('#preview-answer')];
    this.fields = fields;
    this.timer = 0;
    this.abort = null;
  }

  /** Updates the preview after a short pause in typing. */
  schedule() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), DELAY_MS);
  }

  /** Updates the preview now (hides it for a plain card). */
  async update() {
    const { question, answer, rich } = this.fields;
    this.section.hidden = !rich.checked;
    if (!rich.checked) return;
    this.abort?.abort();
    this.abort = new AbortController();
    const { signal } = this.abort;
    const texts = [question.value, answer.value];
    if (!texts.some((text) => text.trim())) {
      this.status.textContent = t('card.previewEmpty');
      for (const face of this.faces) face.replaceChildren();
      return;
    }
    try {
      const rendered = await Promise.all(texts.map((text) => api.render(text, signal)));
      if (signal.aborted) return;
      this.status.textContent = '';
      rendered.forEach((side, i) => setRichHTML(this.faces[i], side.html));
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      this.status.textContent = t('card.previewError');
    }
  }

  destroy() {
    clearTimeout(this.timer);
    this.abort?.abort();
  }
}

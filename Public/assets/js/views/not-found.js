// Unknown /app/… path.

import { html, render } from '../html.js';
import { t } from '../i18n.js';

export function mount(root) {
  render(root, html`
    <section class="page page-narrow">
      <div class="state state-empty">
        <p class="big-number" aria-hidden="true">404</p>
        <h1>${t('notFound.title')}</h1>
        <p class="muted">${t('notFound.text')}</p>
        <a class="btn btn-primary" href="/app/stacks">${t('notFound.home')}</a>
      </div>
    </section>`);
}

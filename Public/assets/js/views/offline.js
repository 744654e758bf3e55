// Shown when a screen's module cannot be loaded (offline before it was ever cached).

import { html, render } from '../html.js';
import { t } from '../i18n.js';
import { errorView } from '../ui.js';

export function mount(root) {
  render(root, html`<section class="page page-narrow"><h1 class="visually-hidden">${t('app.name')}</h1>${errorView(t('error.network'))}</section>`);
  root.querySelector('[data-retry]').addEventListener('click', () => location.reload());
}

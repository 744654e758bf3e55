// What the library and home show when the server cannot be reached: the stacks of the local copy
// with the cards due now (counted in the browser) and a way to study them, or, when nothing was
// stored on this device yet, an empty state that says so. Both offer "Erneut versuchen".

import { html, render } from '../html.js';
import { dueCountValue, formatDateTime, loadStrings, t } from '../i18n.js';
import { STACK_ICONS, icon, loadStylesheet } from '../ui.js';
import { stacks as localStacks } from './local-study.js';
import { currentStore } from './store.js';
import { start } from './status.js';

/**
 * Renders the offline view into `host` (`heading`: render an <h1> too, for home) and calls `retry`
 * from its button or once the browser is online again. Resolves true (it always renders).
 */
export async function overview(host, retry, { heading = false } = {}) {
  await Promise.all([loadStrings('more'), loadStylesheet('/assets/css/offline.css')]);
  start();
  let stacks = [];
  try {
    stacks = await localStacks();
  } catch {
    stacks = null;
  }
  const since = await (await currentStore())?.meta('refreshedAt');
  const withCards = (stacks || []).filter((s) => s.cardCount > 0);
  const due = withCards.reduce((sum, s) => sum + s.dueCount, 0);
  render(host, html`
    <div class="offline-overview">
      ${heading ? html`<h1>${t('offline.homeTitle')}</h1>` : ''}
      ${stacks === null || !withCards.length ? html`
        <div class="state state-empty" role="status">
          <span class="empty-icon" aria-hidden="true">${icon('offline')}</span>
          <p class="empty-title">${t(stacks === null ? 'offline.emptyTitle' : 'offline.noCardsTitle')}</p>
          <p class="muted">${t(stacks === null ? 'offline.emptyText' : 'offline.noCardsText')}</p>
          <button type="button" class="btn btn-secondary" data-retry>${t('retry')}</button>
        </div>` : html`
        <div class="alert alert-info offline-note" role="status">
          <p>${t('offline.note', { date: since ? formatDateTime(new Date(since).toISOString()) : '–' })}</p>
          <button type="button" class="btn btn-secondary btn-sm" data-retry>${t('retry')}</button>
        </div>
        ${due > 0 && withCards.length > 1 ? html`
          <p><a class="btn btn-primary" href="/app/study">${icon('play')}<span>${t('offline.studyAll', { count: due })}</span></a></p>` : ''}
        <ul class="stack-grid offline-stacks" role="list">
          ${withCards.map((s) => html`
            <li class="stack-item">
              <a class="stack-card" href="/app/stacks/${s.id}/study" data-color="${s.color}">
                <span class="badge" aria-hidden="true"><span class="badge-icon">${icon(STACK_ICONS.includes(s.icon) ? s.icon : 'cards')}</span></span>
                <span class="stack-card-body">
                  <span class="stack-card-name">${s.name}</span>
                  <span class="stack-card-meta">
                    <span>${t('dash.cards', { count: s.cardCount })}</span>
                    ${s.dueCount > 0
                      ? html`<span class="pill pill-due">${t('dash.due', { count: dueCountValue(s.dueCount) })}</span>`
                      : html`<span class="pill pill-done">${icon('check')}${t('dash.noneDue')}</span>`}
                  </span>
                  <span class="stack-card-meta">${t('offline.studyStack')}</span>
                </span>
              </a>
            </li>`)}
        </ul>`}
    </div>`);
  const again = () => { removeEventListener('online', again); if (host.isConnected) retry(); };
  host.querySelector('[data-retry]').addEventListener('click', again);
  addEventListener('online', again);
  return true;
}

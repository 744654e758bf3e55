// "Deine Stapel": every stack with its card count and the cards due today.

import { html, render } from '../html.js';
import { DUE_COUNT_LIMIT, dueCountValue, t } from '../i18n.js';
import { api } from '../api/client.js';
import { errorView, icon, loadingView } from '../ui.js';

/** The badge text: the first four letters of the name, as in the original. */
export const badgeText = (name) => Array.from(name.trim()).slice(0, 4).join('').toUpperCase();

export async function mount(root) {
  render(root, html`
    <section class="page">
      <header class="page-header">
        <div>
          <h1>${t('dash.title')}</h1>
          <p class="muted" id="dash-summary">&nbsp;</p>
        </div>
        <div class="actions">
          <a class="btn btn-secondary" href="/app/study" id="study-all" hidden>${icon('play')}<span>${t('dash.studyAll')}</span></a>
          <a class="btn btn-secondary" href="/app/stats">${icon('chart')}<span>${t('stats.title')}</span></a>
          <a class="btn btn-primary" href="/app/stacks/new">${icon('plus')}<span>${t('dash.create')}</span></a>
        </div>
      </header>
      <div id="stacks" aria-live="polite"></div>
    </section>`);
  const host = root.querySelector('#stacks');
  const summary = root.querySelector('#dash-summary');
  const controller = new AbortController();

  async function load() {
    render(host, html`${loadingView(t('dash.loading'))}${skeleton()}`);
    host.setAttribute('aria-busy', 'true');
    try {
      const stacks = await api.stacks({ signal: controller.signal });
      host.removeAttribute('aria-busy');
      const due = stacks.reduce((sum, s) => sum + s.dueCount, 0);
      const cards = stacks.reduce((sum, s) => sum + s.cardCount, 0);
      // A stack at the counting limit has at least that many, so the sum is a lower bound too.
      const shown = dueCountValue(due, stacks.some((s) => s.dueCount >= DUE_COUNT_LIMIT));
      summary.textContent = cards ? (due ? t('dash.summary', { count: shown }) : t('dash.summaryNone')) : '';
      // One session over every stack, once there is more than one stack with cards.
      root.querySelector('#study-all').hidden = stacks.filter((s) => s.cardCount > 0).length < 2;
      render(host, stacks.length ? grid(stacks) : empty());
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      host.removeAttribute('aria-busy');
      render(host, errorView(t('dash.error')));
      host.querySelector('[data-retry]').addEventListener('click', load);
    }
  }
  await load();
  return () => controller.abort();
}

const skeleton = () => html`<ul class="stack-grid skeleton" aria-hidden="true">${[1, 2, 3, 4].map(() => html`<li class="stack-card"><span class="badge"></span><span class="line"></span></li>`)}</ul>`;

const grid = (stacks) => html`
  <ul class="stack-grid" role="list">
    ${stacks.map((s) => html`
      <li>
        <a class="stack-card" href="/app/stacks/${s.id}" data-color="${s.color}">
          <span class="badge" aria-hidden="true">${badgeText(s.name)}</span>
          <span class="stack-card-body">
            <span class="stack-card-name">${s.name}</span>
            <span class="stack-card-meta">
              <span>${t('dash.cards', { count: s.cardCount })}</span>
              ${s.dueCount > 0
                ? html`<span class="pill pill-due">${t('dash.due', { count: dueCountValue(s.dueCount) })}</span>`
                : s.cardCount > 0 ? html`<span class="pill pill-done">${icon('check')}${t('dash.noneDue')}</span>` : ''}
            </span>
          </span>
          <span class="chevron" aria-hidden="true">${icon('chevron')}</span>
        </a>
      </li>`)}
  </ul>`;

const empty = () => html`
  <a class="empty-state" href="/app/stacks/new">
    <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
    <span class="empty-title">${t('dash.empty')}</span>
    <span class="muted">${t('dash.emptyText')}</span>
  </a>`;

// The library "Deine Stapel" (/app/stacks): every stack with its icon, description, card count,
// the cards due today, a progress ring (share of cards in review state), when it was last
// studied, and a favourite star. From two stacks on, a search (name and description) and the
// pills Alle / Zuletzt gelernt / Favoriten filter the list; both are kept in the URL
// (`?q=…&filter=recent|favorites`, replacing the entry), so Back returns to the same view.

import { html, render } from '../html.js';
import { DUE_COUNT_LIMIT, dueCountValue, locale, t } from '../i18n.js';
import { api } from '../api/client.js';
import { STACK_ICONS, announce, errorView, icon, loadingView, ring, toast } from '../ui.js';

/**
 * The badge of a stack: the icon chosen for it, else the standard one (a stack of cards). Never
 * the first letters of the name: cut to four they read as a word fragment ("VOKA", issue 33).
 */
export const stackBadge = (stack, className = '') => html`
  <span class="badge ${className}" aria-hidden="true"><span class="badge-icon">${icon(STACK_ICONS.includes(stack.icon) ? stack.icon : 'cards')}</span></span>`;

/**
 * "vor 5 Minuten", "gestern", "vor 2 Tagen", "vor 3 Monaten" in the current language: the
 * largest unit reached; days are calendar days ("gestern" as a word, under a minute "gerade eben").
 */
export function timeAgo(iso, now = new Date()) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const format = new Intl.RelativeTimeFormat(locale(), { numeric: 'always' });
  const word = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' }); // "gestern", "yesterday"
  const seconds = Math.max(0, (now - date) / 1000);
  if (seconds < 60) return t('lib.justNow');
  if (seconds < 3600) return format.format(-Math.floor(seconds / 60), 'minute');
  const startOfDay = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOfDay(now) - startOfDay(date)) / 86_400_000);
  if (days === 0) return format.format(-Math.floor(seconds / 3600), 'hour');
  if (days === 1) return word.format(-1, 'day');
  if (days < 30) return format.format(-days, 'day');
  if (days < 365) return format.format(-Math.floor(days / 30), 'month');
  return format.format(-Math.floor(days / 365), 'year');
}

/** The stacks a filter and search show, in the order shown. */
export function visibleStacks(stacks, filter, q) {
  const needle = q.trim().toLocaleLowerCase();
  let list = stacks.filter((s) => !needle
    || s.name.toLocaleLowerCase().includes(needle)
    || (s.description || '').toLocaleLowerCase().includes(needle));
  if (filter === 'favorites') list = list.filter((s) => s.favorite);
  if (filter === 'recent') {
    list = list.filter((s) => s.lastStudiedAt)
      .sort((a, b) => new Date(b.lastStudiedAt) - new Date(a.lastStudiedAt));
  }
  return list;
}

const FILTERS = ['all', 'recent', 'favorites'];

export async function mount(root, { query }) {
  const screen = new LibraryScreen(root, {
    q: query.get('q') || '',
    filter: FILTERS.includes(query.get('filter')) ? query.get('filter') : 'all',
  });
  await screen.load();
  return () => screen.destroy();
}

const pageTemplate = ({ q, filter }) => html`
  <section class="page">
    <header class="page-header">
      <div>
        <h1>${t('dash.title')}</h1>
        <p class="muted" id="dash-summary">&nbsp;</p>
      </div>
      <div class="actions">
        <a class="btn btn-secondary" href="/app/study" id="study-all" hidden>${icon('play')}<span>${t('dash.studyAll')}</span></a>
        <a class="btn btn-secondary" href="/app/stats">${icon('chart')}<span>${t('stats.title')}</span></a>
        <a class="btn btn-secondary" href="/app/import">${icon('upload')}<span>${t('dash.import')}</span></a>
        <a class="btn btn-primary" href="/app/stacks/new">${icon('plus')}<span>${t('dash.create')}</span></a>
      </div>
    </header>
    <div class="toolbar library-toolbar" role="search" id="library-toolbar" hidden>
      <label class="search">
        <span class="visually-hidden">${t('lib.search')}</span>
        ${icon('search')}
        <input type="search" id="library-search" placeholder="${t('lib.searchPlaceholder')}" value="${q}" autocomplete="off">
      </label>
      <fieldset class="filter-toggle" id="library-filter">
        <legend class="visually-hidden">${t('lib.filter')}</legend>
        ${FILTERS.map((f) => html`
          <label class="filter-option">
            <input type="radio" name="library-filter" value="${f}" ${f === filter ? 'checked' : ''}>
            <span>${f === 'favorites' ? icon('star') : ''}${t(`lib.filter.${f}`)}</span>
          </label>`)}
      </fieldset>
    </div>
    <div id="stacks"></div>
    <p class="visually-hidden" role="status" id="library-status"></p>
  </section>`;

/** One visit of the library: owns the search, the filter and the stacks loaded, the request under
 * way and the search's pause timer (destroy ends both). */
class LibraryScreen {
  constructor(root, { q, filter }) {
    this.root = root;
    this.q = q;
    this.filter = filter;
    this.stacks = [];
    this.controller = new AbortController();
    this.timer = null;
    render(root, pageTemplate(this));
    const $ = (sel) => root.querySelector(sel);
    this.el = { host: $('#stacks'), summary: $('#dash-summary'), toolbar: $('#library-toolbar'), search: $('#library-search'), status: $('#library-status') };
    this.listen();
  }

  destroy() {
    this.controller.abort();
    clearTimeout(this.timer);
  }

  listen() {
    const { search, host } = this.el;
    search.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { this.q = search.value.trim(); this.keepInUrl(); this.show(true); }, 150);
    });
    this.root.querySelector('#library-filter').addEventListener('change', (event) => {
      this.filter = event.target.value;
      this.keepInUrl();
      this.show(true);
    });
    host.addEventListener('click', (event) => {
      const star = event.target.closest('button[data-favorite]');
      if (star) this.toggleFavorite(star);
    });
  }

  keepInUrl() {
    const url = new URL(location.href);
    this.q ? url.searchParams.set('q', this.q) : url.searchParams.delete('q');
    this.filter !== 'all' ? url.searchParams.set('filter', this.filter) : url.searchParams.delete('filter');
    history.replaceState(history.state, '', url.pathname + url.search);
  }

  /** Shows the stacks of the filter and search; `say`: the number found is announced. */
  show(say = false) {
    const { host, status } = this.el;
    if (!this.stacks.length) { render(host, empty()); return; }
    const list = visibleStacks(this.stacks, this.filter, this.q);
    render(host, list.length ? grid(list) : noneShown(this.filter, this.q));
    if (say) announce(status, t('lib.found', { count: list.length }));
  }

  async load() {
    const { host } = this.el;
    render(host, html`${loadingView(t('dash.loading'))}${skeleton()}`);
    host.setAttribute('aria-busy', 'true');
    try {
      this.stacks = await api.stacks({ signal: this.controller.signal });
      host.removeAttribute('aria-busy');
      this.showLoaded();
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      host.removeAttribute('aria-busy');
      const reload = () => this.load();
      if (!error.status && await import('../offline/views.js').then((m) => m.overview(host, reload), () => 0)) return;
      render(host, errorView(t('dash.error')));
      host.querySelector('[data-retry]').addEventListener('click', reload);
    }
  }

  /** The summary line, "Alle lernen" and the toolbar as the stacks loaded call for, then the stacks. */
  showLoaded() {
    const { stacks } = this;
    const due = stacks.reduce((sum, s) => sum + s.dueCount, 0);
    const cards = stacks.reduce((sum, s) => sum + s.cardCount, 0);
    // A stack at the counting limit has at least that many, so the sum is a lower bound too.
    const shown = dueCountValue(due, stacks.some((s) => s.dueCount >= DUE_COUNT_LIMIT));
    this.el.summary.textContent = cards ? (due ? t('dash.summary', { count: shown }) : t('dash.summaryNone')) : '';
    // One session over every stack, once there is more than one stack with cards.
    this.root.querySelector('#study-all').hidden = stacks.filter((s) => s.cardCount > 0).length < 2;
    // Searching and filtering pay off from two stacks on (a filter already chosen stays).
    this.el.toolbar.hidden = stacks.length < 2 && !this.q && this.filter === 'all';
    this.show();
  }

  /** The favourite star: saved at once, focus stays on the star of the same stack. */
  async toggleFavorite(star) {
    const { host, search, status } = this.el;
    const stack = this.stacks.find((s) => s.id === star.dataset.favorite);
    if (!stack) return;
    const on = !stack.favorite;
    star.disabled = true;
    try {
      const saved = await api.updateStack(stack.id, { favorite: on });
      Object.assign(stack, { favorite: saved?.favorite ?? on });
      this.show();
      const again = host.querySelector(`button[data-favorite="${CSS.escape(stack.id)}"]`);
      (again || search).focus();
      announce(status, t(stack.favorite ? 'lib.favoriteAdded' : 'lib.favoriteRemoved', { name: stack.name }));
    } catch (error) {
      star.disabled = false;
      if (error.status === 401) return;
      toast(t('lib.favoriteError'), 'error');
    }
  }
}

const skeleton = () => html`<ul class="stack-grid skeleton" aria-hidden="true">${[1, 2, 3, 4].map(() => html`<li class="stack-card"><span class="badge"></span><span class="line"></span></li>`)}</ul>`;

const percent = (share) => new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 0 })
  .format(Math.max(0, Math.min(1, Number(share) || 0)));

const grid = (stacks) => html`
  <ul class="stack-grid" role="list">
    ${stacks.map((s) => html`
      <li class="stack-item">
        <a class="stack-card" href="/app/stacks/${s.id}" data-color="${s.color}">
          ${stackBadge(s)}
          <span class="stack-card-body">
            <span class="stack-card-name" title="${s.name}">${s.name}</span>
            ${s.description ? html`<span class="stack-card-description">${s.description}</span>` : ''}
            <span class="stack-card-meta">
              <span>${t('dash.cards', { count: s.cardCount })}</span>
              ${s.dueCount > 0
                ? html`<span class="pill pill-due">${t('dash.due', { count: dueCountValue(s.dueCount) })}</span>`
                : s.cardCount > 0 ? html`<span class="pill pill-done">${icon('check')}${t('dash.noneDue')}</span>` : ''}
            </span>
            <span class="stack-card-meta stack-card-progress">
              ${s.cardCount > 0 && typeof s.reviewShare === 'number' ? html`
                <span class="stack-ring">${ring(s.reviewShare, { size: 20, stroke: 3 })}<span>${t('lib.share', { percent: percent(s.reviewShare) })}</span></span>` : ''}
              ${s.lastStudiedAt ? html`<span class="last-studied">${t('lib.lastStudied', { when: timeAgo(s.lastStudiedAt) })}</span>` : ''}
            </span>
          </span>
        </a>
        ${typeof s.favorite === 'boolean' ? html`
          <button type="button" class="btn btn-ghost btn-icon fav-toggle ${s.favorite ? 'is-favorite' : ''}" data-favorite="${s.id}"
            aria-pressed="${s.favorite ? 'true' : 'false'}" aria-label="${t('lib.favoriteLabel', { name: s.name })}">${icon('star')}</button>` : ''}
      </li>`)}
  </ul>`;

const empty = () => html`
  <a class="empty-state" href="/app/stacks/new">
    <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
    <span class="empty-title">${t('dash.empty')}</span>
    <span class="muted">${t('dash.emptyText')}</span>
  </a>`;

/** The empty state of a filter or a search without hits. */
function noneShown(filter, q) {
  const key = q ? 'search' : filter;
  return html`
    <div class="state state-empty library-empty">
      <span class="empty-icon" aria-hidden="true">${icon(key === 'favorites' ? 'star' : key === 'recent' ? 'clock' : 'search')}</span>
      <p class="empty-title">${q ? t('lib.noResults', { q }) : t(`lib.empty.${filter}`)}</p>
      <p class="muted">${t(q ? 'lib.noResultsText' : `lib.emptyText.${filter}`)}</p>
    </div>`;
}

// Explore (/app/explore): the public catalogue. A search over names and descriptions, category
// pills and a language choice (all kept in the URL, `?q=…&category=…&language=…`, replacing the
// entry), a grid of published stacks with their first questions, a page at a time. It opens on the
// stacks in the learner's interface language; "Alle Sprachen zeigen" (one click) or the choice shows
// the others (`language=all` in the URL). Strings and styles load on use (explore.*.js, explore.css).

import { applyColors, html, render } from '../html.js';
import { currentLanguage, formatNumber, loadStrings, t } from '../i18n.js';
import { enc, request } from '../api/client.js';
import { announce, errorText, errorView, icon, loadStylesheet, loadingView, setBusy, toast } from '../ui.js';
import { stackBadge } from './dashboard.js';
import { setCardLine } from '../rich-text.js';

export const CATEGORIES = ['languages', 'science', 'math', 'geography', 'history', 'medicine', 'law', 'technology', 'business', 'arts', 'other'];
export const LANGUAGES = ['de', 'en', 'fr', 'es', 'it', 'other'];
const PER_PAGE = 24;

/** The catalogue's routes (kept here, not in api/client.js, so the first page stays small). */
export const catalogue = {
  /** The stack's entry (404 `not_published` when it is not published). */
  publication: (id) => request('GET', `/stacks/${enc(id)}/publication`),
  publish: (id, category, language) => request('PUT', `/stacks/${enc(id)}/publication`, { category, language }),
  unpublish: (id) => request('DELETE', `/stacks/${enc(id)}/publication`),
  /** A page: `{ q, category, language, page, perPage }`, blank values left out. */
  browse: (params, options = {}) => {
    const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== '' && value != null));
    return request('GET', `/explore?${query}`, undefined, options);
  },
  entry: (id, page, perPage) => request('GET', `/explore/${enc(id)}?page=${page}&perPage=${perPage}`),
  copy: (id) => request('POST', `/explore/${enc(id)}/copy`),
  report: (id, reason, note) => request('POST', `/explore/${enc(id)}/report`, { reason, note: note || null }),
};

/** Where an entry's author line comes from: us, the caller, or someone else. */
export const authorLine = (entry) => (entry.official ? t('explore.official') : entry.mine ? t('explore.mine') : t('explore.by', { author: entry.author }));

/** The category and language pills of an entry. */
export const entryPills = (entry) => html`
  <span class="pill pill-category">${t(`category.${entry.category}`)}</span>
  <span class="pill pill-language">${t(`language.${entry.language}`)}</span>`;

export async function mount(root, { query }) {
  render(root, loadingView(t('loading')));
  await Promise.all([loadStrings('explore'), loadStylesheet('/assets/css/explore.css')]);
  // The learner's own language unless the URL names one (or `all`).
  const own = LANGUAGES.includes(currentLanguage()) ? currentLanguage() : '';
  const asked = query.get('language');
  const screen = new ExploreScreen(root, {
    q: query.get('q') || '',
    category: CATEGORIES.includes(query.get('category')) ? query.get('category') : '',
    language: asked === 'all' ? '' : LANGUAGES.includes(asked) ? asked : own,
    own,
  });
  await screen.load();
  return () => screen.destroy();
}

const pageTemplate = ({ q, category, language }) => html`
  <section class="page">
    <header class="page-header">
      <div>
        <h1 tabindex="-1">${t('explore.title')}</h1>
        <p class="muted">${t('explore.lead')}</p>
      </div>
    </header>
    <form class="toolbar explore-toolbar" role="search" id="explore-form">
      <label class="search">
        <span class="visually-hidden">${t('explore.search')}</span>
        ${icon('search')}
        <input type="search" id="explore-search" name="q" maxlength="200" placeholder="${t('explore.searchPlaceholder')}" value="${q}" autocomplete="off">
      </label>
      <label class="explore-language">
        <span class="visually-hidden">${t('explore.language')}</span>
        <select id="explore-language">
          <option value="">${t('explore.allLanguages')}</option>
          ${LANGUAGES.map((code) => html`<option value="${code}" ${code === language ? 'selected' : ''}>${t(`language.${code}`)}</option>`)}
        </select>
      </label>
      <button type="button" class="btn btn-ghost btn-sm" id="explore-all-languages" ${language ? '' : 'hidden'}>${icon('globe')}<span>${t('explore.showAllLanguages')}</span></button>
    </form>
    <div class="category-pills" role="group" aria-label="${t('explore.categories')}" id="explore-categories">
      ${['', ...CATEGORIES].map((c) => html`
        <button type="button" class="category-pill" data-category="${c}" aria-pressed="${c === category ? 'true' : 'false'}">
          ${c ? t(`category.${c}`) : t('explore.allCategories')}</button>`)}
    </div>
    <p class="visually-hidden" role="status" id="explore-status"></p>
    <div id="explore-results"></div>
    <button type="button" class="btn btn-secondary explore-more" id="explore-more" hidden>${t('explore.more')}</button>
  </section>`;

/** No entries: none published yet, or none for the search and filters. */
const noEntries = (filtered) => html`
  <div class="panel empty-state explore-empty">
    <span class="empty-icon" aria-hidden="true">${icon('compass')}</span>
    <span class="empty-title">${t(filtered ? 'explore.none' : 'explore.empty')}</span>
    <span class="muted">${t(filtered ? 'explore.noneHint' : 'explore.emptyHint')}</span>
  </div>`;

const entryCard = (entry) => html`
  <article class="explore-card" data-color="${entry.color}" aria-labelledby="entry-${entry.id}">
    <div class="explore-card-head">
      ${stackBadge(entry)}
      <div class="explore-card-title">
        <h2 id="entry-${entry.id}"><a href="/app/explore/${entry.id}">${entry.name}</a></h2>
        <p class="muted">${t('explore.cards', { count: formatNumber(entry.cardCount) })} · ${authorLine(entry)}</p>
      </div>
    </div>
    ${entry.description ? html`<p class="explore-description">${entry.description}</p>` : ''}
    <div class="explore-pills">${entryPills(entry)}</div>
    <ul class="explore-preview">
      ${entry.preview.map(() => html`<li></li>`)}
    </ul>
  </article>`;

/** One visit of the catalogue: owns the search, category and language (kept in the URL), the page
 * shown, the request under way and the search's pause timer (destroy ends both). */
class ExploreScreen {
  constructor(root, { q, category, language, own }) {
    Object.assign(this, { root, q, category, language, own });
    this.controller = null;
    this.page = 1;
    this.timer = null;
    render(root, pageTemplate(this));
    root.querySelector('h1').focus({ preventScroll: true });
    const $ = (sel) => root.querySelector(sel);
    this.el = {
      host: $('#explore-results'), status: $('#explore-status'), more: $('#explore-more'), search: $('#explore-search'),
      languageChoice: $('#explore-language'), allLanguages: $('#explore-all-languages'),
    };
    this.listen();
  }

  destroy() {
    clearTimeout(this.timer);
    this.controller?.abort();
  }

  listen() {
    const { root, el } = this;
    el.more.addEventListener('click', () => this.loadMore());
    root.querySelector('#explore-form').addEventListener('submit', (event) => {
      event.preventDefault();
      clearTimeout(this.timer);
      this.searchFor(el.search.value);
    });
    el.search.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { if (el.search.value !== this.q) this.searchFor(el.search.value); }, 300);
    });
    el.languageChoice.addEventListener('change', (event) => this.chooseLanguage(event.target.value));
    el.allLanguages.addEventListener('click', () => {
      this.chooseLanguage('');
      el.languageChoice.focus(); // the button hides itself; focus goes to the choice it changed
    });
    root.querySelector('#explore-categories').addEventListener('click', (event) => {
      const pill = event.target.closest('[data-category]');
      if (pill) this.chooseCategory(pill);
    });
  }

  keepInUrl() {
    const url = new URL(location.href);
    // The learner's own language is the default and stays out of the URL; every language is `all`.
    const lang = this.language === this.own ? '' : this.language || 'all';
    for (const [key, value] of Object.entries({ q: this.q, category: this.category, language: lang })) {
      value ? url.searchParams.set(key, value) : url.searchParams.delete(key);
    }
    history.replaceState(history.state, '', url.pathname + url.search);
  }

  /** Shows the first page again for a changed search or filter (announcing the number found). */
  refresh() {
    this.keepInUrl();
    this.load({ say: true });
  }

  searchFor(q) {
    this.q = q;
    this.refresh();
  }

  chooseLanguage(code) {
    const { languageChoice, allLanguages } = this.el;
    this.language = code;
    languageChoice.value = code;
    allLanguages.hidden = !code;
    this.refresh();
  }

  chooseCategory(pill) {
    this.category = pill.dataset.category;
    for (const other of this.root.querySelectorAll('[data-category]')) {
      other.setAttribute('aria-pressed', other === pill ? 'true' : 'false');
    }
    this.refresh();
  }

  /** The search's parameters for page `page`. */
  params(page) {
    return { q: this.q.trim(), category: this.category, language: this.language, page, perPage: PER_PAGE };
  }

  async load({ say = false } = {}) {
    const { host, more, status } = this.el;
    this.controller?.abort();
    this.controller = new AbortController();
    const { signal } = this.controller;
    this.page = 1;
    more.hidden = true;
    render(host, loadingView(t('loading')));
    host.setAttribute('aria-busy', 'true');
    try {
      const result = await catalogue.browse(this.params(1), { signal });
      if (signal.aborted) return;
      host.removeAttribute('aria-busy');
      if (!result.items.length) {
        render(host, noEntries(this.q.trim() || this.category || this.language));
      } else {
        render(host, html`<ul class="explore-grid" role="list" id="explore-grid"></ul>`);
        this.append(result);
      }
      if (say) announce(status, t('explore.results', { count: formatNumber(result.total) }));
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      host.removeAttribute('aria-busy');
      render(host, errorView(errorText(error)));
      host.querySelector('[data-retry]').addEventListener('click', () => this.load());
    }
  }

  append(result) {
    const list = this.el.host.querySelector('#explore-grid');
    for (const entry of result.items) {
      const item = document.createElement('li');
      render(item, entryCard(entry));
      // The preview's questions on a line each, formatting and formulas rendered.
      item.querySelectorAll('.explore-preview li').forEach((line, i) => setCardLine(line, entry.preview[i], 'question'));
      list.append(item);
    }
    applyColors(list);
    this.el.more.hidden = result.page * result.perPage >= result.total;
  }

  async loadMore() {
    const { more } = this.el;
    setBusy(more, true);
    try {
      const next = await catalogue.browse(this.params(this.page + 1));
      this.page += 1;
      this.append(next);
    } catch (error) {
      if (error.status !== 401) toast(errorText(error), 'error');
    } finally {
      setBusy(more, false);
    }
  }
}

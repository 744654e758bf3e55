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
  let q = query.get('q') || '';
  let category = CATEGORIES.includes(query.get('category')) ? query.get('category') : '';
  // The learner's own language unless the URL names one (or `all`).
  const own = LANGUAGES.includes(currentLanguage()) ? currentLanguage() : '';
  const asked = query.get('language');
  let language = asked === 'all' ? '' : LANGUAGES.includes(asked) ? asked : own;

  render(root, html`
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
    </section>`);
  root.querySelector('h1').focus({ preventScroll: true });

  const host = root.querySelector('#explore-results');
  const status = root.querySelector('#explore-status');
  const more = root.querySelector('#explore-more');
  const search = root.querySelector('#explore-search');
  let controller = null;
  let page = 1;
  let timer = null;

  function keepInUrl() {
    const url = new URL(location.href);
    // The learner's own language is the default and stays out of the URL; every language is `all`.
    const lang = language === own ? '' : language || 'all';
    for (const [key, value] of Object.entries({ q, category, language: lang })) {
      value ? url.searchParams.set(key, value) : url.searchParams.delete(key);
    }
    history.replaceState(history.state, '', url.pathname + url.search);
  }

  async function load({ say = false } = {}) {
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    page = 1;
    more.hidden = true;
    render(host, loadingView(t('loading')));
    host.setAttribute('aria-busy', 'true');
    try {
      const result = await catalogue.browse({ q: q.trim(), category, language, page, perPage: PER_PAGE }, { signal });
      if (signal.aborted) return;
      host.removeAttribute('aria-busy');
      if (!result.items.length) {
        const filtered = q.trim() || category || language;
        render(host, html`
          <div class="panel empty-state explore-empty">
            <span class="empty-icon" aria-hidden="true">${icon('compass')}</span>
            <span class="empty-title">${t(filtered ? 'explore.none' : 'explore.empty')}</span>
            <span class="muted">${t(filtered ? 'explore.noneHint' : 'explore.emptyHint')}</span>
          </div>`);
      } else {
        render(host, html`<ul class="explore-grid" role="list" id="explore-grid"></ul>`);
        append(result);
      }
      if (say) announce(status, t('explore.results', { count: formatNumber(result.total) }));
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      host.removeAttribute('aria-busy');
      render(host, errorView(errorText(error)));
      host.querySelector('[data-retry]').addEventListener('click', () => load());
    }
  }

  function append(result) {
    const list = host.querySelector('#explore-grid');
    for (const entry of result.items) {
      const item = document.createElement('li');
      render(item, html`
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
        </article>`);
      // The preview's questions on a line each, formatting and formulas rendered.
      item.querySelectorAll('.explore-preview li').forEach((line, i) => setCardLine(line, entry.preview[i], 'question'));
      list.append(item);
    }
    applyColors(list);
    more.hidden = result.page * result.perPage >= result.total;
  }

  more.addEventListener('click', async () => {
    setBusy(more, true);
    try {
      const next = await catalogue.browse({ q: q.trim(), category, language, page: page + 1, perPage: PER_PAGE });
      page += 1;
      append(next);
    } catch (error) {
      if (error.status !== 401) toast(errorText(error), 'error');
    } finally {
      setBusy(more, false);
    }
  });

  root.querySelector('#explore-form').addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    q = search.value;
    keepInUrl();
    load({ say: true });
  });
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (search.value === q) return;
      q = search.value;
      keepInUrl();
      load({ say: true });
    }, 300);
  });
  const languageChoice = root.querySelector('#explore-language');
  const allLanguages = root.querySelector('#explore-all-languages');
  function chooseLanguage(code) {
    language = code;
    languageChoice.value = code;
    allLanguages.hidden = !code;
    keepInUrl();
    load({ say: true });
  }
  languageChoice.addEventListener('change', (event) => chooseLanguage(event.target.value));
  allLanguages.addEventListener('click', () => {
    chooseLanguage('');
    languageChoice.focus(); // the button hides itself; focus goes to the choice it changed
  });
  root.querySelector('#explore-categories').addEventListener('click', (event) => {
    const pill = event.target.closest('[data-category]');
    if (!pill) return;
    category = pill.dataset.category;
    for (const other of root.querySelectorAll('[data-category]')) {
      other.setAttribute('aria-pressed', other === pill ? 'true' : 'false');
    }
    keepInUrl();
    load({ say: true });
  });

  await load();
  return () => {
    clearTimeout(timer);
    controller?.abort();
  };
}

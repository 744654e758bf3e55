// The catalogue's screen (views/explore.js): the one owner of its state (search, category,
// language, page, the request in flight, the search's pause), kept in the URL. Its listeners,
// timer and request end with the clean-up `start()` returns.

import { applyColors, html, render } from '../../html.js';
import { formatNumber, t } from '../../i18n.js';
import { announce, errorText, errorView, loadingView, setBusy, toast } from '../../ui.js';
import { setCardLine } from '../../rich-text.js';
import { emptyMarkup, entryMarkup, pageMarkup } from './markup.js';

const PER_PAGE = 24;

export class ExploreScreen {
  page = 1;
  #request = null;
  #timer = null;
  #controller = new AbortController();

  /** `state`: {q, category, language, own (the learner's language: the default)}; `browse`: the API call. */
  constructor(root, state, browse) {
    this.root = root;
    Object.assign(this, state);
    this.browse = browse;
  }

  $(selector) { return this.root.querySelector(selector); }

  /** Draws the page and loads the first results; resolves with the clean-up. */
  async start() {
    render(this.root, pageMarkup(this));
    this.$('h1').focus({ preventScroll: true });
    this.host = this.$('#explore-results');
    this.more = this.$('#explore-more');
    this.search = this.$('#explore-search');
    this.languageChoice = this.$('#explore-language');
    this.#listen(this.#controller.signal);
    await this.load();
    return () => this.stop();
  }

  stop() {
    clearTimeout(this.#timer);
    this.#request?.abort();
    this.#controller.abort();
  }

  #listen(signal) {
    this.more.addEventListener('click', () => this.#loadMore(), { signal });
    this.$('#explore-form').addEventListener('submit', (event) => {
      event.preventDefault();
      clearTimeout(this.#timer);
      this.#change({ q: this.search.value });
    }, { signal });
    this.search.addEventListener('input', () => {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => { if (this.search.value !== this.q) this.#change({ q: this.search.value }); }, 300);
    }, { signal });
    this.languageChoice.addEventListener('change', (event) => this.#chooseLanguage(event.target.value), { signal });
    this.$('#explore-all-languages').addEventListener('click', () => {
      this.#chooseLanguage('');
      this.languageChoice.focus(); // the button hides itself; focus goes to the choice it changed
    }, { signal });
    this.$('#explore-categories').addEventListener('click', (event) => {
      const pill = event.target.closest('[data-category]');
      if (!pill) return;
      for (const other of this.root.querySelectorAll('[data-category]')) other.setAttribute('aria-pressed', other === pill ? 'true' : 'false');
      this.#change({ category: pill.dataset.category });
    }, { signal });
  }

  #chooseLanguage(code) {
    this.languageChoice.value = code;
    this.$('#explore-all-languages').hidden = !code;
    this.#change({ language: code });
  }

  /** A new search or choice: kept in the URL, the results loaded and announced. */
  #change(changes) {
    Object.assign(this, changes);
    this.#keepInUrl();
    this.load({ say: true });
  }

  #keepInUrl() {
    const url = new URL(location.href);
    // The learner's own language is the default and stays out of the URL; every language is `all`.
    const lang = this.language === this.own ? '' : this.language || 'all';
    for (const [key, value] of Object.entries({ q: this.q, category: this.category, language: lang })) {
      if (value) url.searchParams.set(key, value); else url.searchParams.delete(key);
    }
    history.replaceState(history.state, '', url.pathname + url.search);
  }

  #params(page) {
    return { q: this.q.trim(), category: this.category, language: this.language, page, perPage: PER_PAGE };
  }

  async load({ say = false } = {}) {
    this.#request?.abort();
    this.#request = new AbortController();
    const { signal } = this.#request;
    const { host } = this;
    this.page = 1;
    this.more.hidden = true;
    render(host, loadingView(t('loading')));
    host.setAttribute('aria-busy', 'true');
    try {
      const result = await this.browse(this.#params(1), { signal });
      if (signal.aborted) return;
      host.removeAttribute('aria-busy');
      if (!result.items.length) render(host, emptyMarkup(this.q.trim() || this.category || this.language));
      else {
        render(host, html`<ul class="explore-grid" role="list" id="explore-grid"></ul>`);
        this.#append(result);
      }
      if (say) announce(this.$('#explore-status'), t('explore.results', { count: formatNumber(result.total) }));
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      host.removeAttribute('aria-busy');
      render(host, errorView(errorText(error)));
      host.querySelector('[data-retry]').addEventListener('click', () => this.load());
    }
  }

  #append(result) {
    const list = this.host.querySelector('#explore-grid');
    for (const entry of result.items) {
      const item = document.createElement('li');
      render(item, entryMarkup(entry));
      // The preview's questions on a line each, formatting and formulas rendered.
      item.querySelectorAll('.explore-preview li').forEach((line, i) => setCardLine(line, entry.preview[i], 'question'));
      list.append(item);
    }
    applyColors(list);
    this.more.hidden = result.page * result.perPage >= result.total;
  }

  async #loadMore() {
    setBusy(this.more, true);
    try {
      const next = await this.browse(this.#params(this.page + 1));
      this.page += 1;
      this.#append(next);
    } catch (error) {
      if (error.status !== 401) toast(errorText(error), 'error');
    } finally {
      setBusy(this.more, false);
    }
  }
}

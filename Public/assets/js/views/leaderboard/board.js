// The leaderboard's board (views/leaderboard.js): the one owner of its state (the metric, kept in
// the URL; the request in flight). Tabs move with the arrow keys, Home and End. Its request ends
// with the clean-up `start()` returns.

import { render } from '../../html.js';
import { t } from '../../i18n.js';
import { api } from '../../api/client.js';
import { saveSettings } from '../../account.js';
import { errorText, errorView, loadingView, setBusy, toast } from '../../ui.js';
import { METRICS, boardMarkup, table } from './markup.js';

export class Board {
  #controller = new AbortController();

  constructor(root, metric, reload) {
    this.root = root;
    this.metric = metric;
    this.reload = reload;
  }

  /** Draws the board and loads it; resolves with the clean-up. */
  async start() {
    render(this.root, boardMarkup(this.metric));
    this.host = this.root.querySelector('#board');
    this.panel = this.root.querySelector('#board-panel');
    const tablist = this.root.querySelector('[role=tablist]');
    tablist.addEventListener('click', (event) => {
      const tab = event.target.closest('[role=tab]');
      if (tab && tab.dataset.metric !== this.metric) this.select(tab.dataset.metric, false);
    });
    tablist.addEventListener('keydown', (event) => {
      const i = METRICS.indexOf(this.metric);
      const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -i, End: METRICS.length - 1 - i };
      if (!(event.key in moves)) return;
      event.preventDefault();
      this.select(METRICS[(i + moves[event.key] + METRICS.length) % METRICS.length], true);
    });
    this.root.querySelector('#leave').addEventListener('click', (event) => this.#leave(event.currentTarget));
    await this.load();
    return () => this.#controller.abort();
  }

  async load() {
    const { host, metric } = this;
    render(host, loadingView(t('loading')));
    host.setAttribute('aria-busy', 'true');
    try {
      const board = await api.leaderboard(metric, { signal: this.#controller.signal });
      host.removeAttribute('aria-busy');
      render(host, table(board, metric));
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      host.removeAttribute('aria-busy');
      render(host, errorView(errorText(error, 'board.error')));
      host.querySelector('[data-retry]').addEventListener('click', () => this.load());
    }
  }

  select(next, focus) {
    this.metric = next;
    for (const tab of this.root.querySelectorAll('[role=tab]')) {
      const on = tab.dataset.metric === next;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    }
    this.panel.setAttribute('aria-labelledby', `tab-${next}`);
    const url = new URL(location.href);
    if (next === 'cards') url.searchParams.delete('metric'); else url.searchParams.set('metric', next);
    history.replaceState(history.state, '', url.pathname + url.search);
    this.load();
  }

  async #leave(button) {
    setBusy(button, true);
    try {
      await saveSettings({ leaderboardOptIn: false });
      toast(t('board.left'));
      await this.reload();
    } catch (error) {
      setBusy(button, false);
      if (error.status !== 401) toast(errorText(error, 'settings.saveError'), 'error');
    }
  }
}

// Leaderboard (/app/leaderboard): today's top 50 by cards studied or by topics (stacks) explored,
// display names only. It is opt-in: until the learner joins, the page explains it and offers the
// switch (`PATCH /me/settings {leaderboardOptIn}`). The tabs Karten / Themen move with the arrow
// keys; the metric is kept in the URL (`?metric=topics`). In focus mode or with game elements off
// there is no leaderboard. It is not in the main navigation: the statistics and the home screen's
// progress link to it, and its breadcrumb leads back to the statistics.

import { html, render } from '../html.js';
import { formatNumber, t } from '../i18n.js';
import { api, session } from '../api/client.js';
import { focusMode, gameElements, loadSettings, saveSettings } from '../account.js';
import { backLink, errorText, errorView, icon, loadingView, retryable, setBusy, toast } from '../ui.js';
import { loadProgressAssets, stale } from '../progress-ui.js';

const METRICS = ['cards', 'topics'];

export const mount = retryable(mountBoard);

async function mountBoard(root, ctx, reload) {
  render(root, loadingView(t('loading')));
  let settings;
  try {
    await loadProgressAssets();
    settings = await loadSettings();
  } catch (error) {
    if (error.status === 401 || stale(ctx)) return undefined;
    render(root, html`<section class="page page-narrow">${errorView(errorText(error, 'board.error'))}</section>`);
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  if (stale(ctx)) return undefined;
  const focus = settings?.focusMode ?? focusMode();
  if (focus || !(settings ? settings.gameElements !== false : gameElements())) {
    render(root, frame(offNote(focus)));
    return undefined;
  }
  if (!settings?.leaderboardOptIn) {
    showJoin(root, reload);
    return undefined;
  }
  const screen = new BoardScreen(root, METRICS.includes(ctx.query.get('metric')) ? ctx.query.get('metric') : 'cards', reload);
  await screen.load();
  return () => screen.destroy();
}

const frame = (body) => html`
  <section class="page page-narrow leaderboard">
    <nav class="breadcrumb" aria-label="Breadcrumb">${backLink('/app/stats', t('stats.title'))}</nav>
    <header class="page-header"><div><h1>${t('board.title')}</h1><p class="muted">${t('board.lead')}</p></div></header>
    ${body}
  </section>`;

/** No leaderboard in focus mode or with game elements off. */
const offNote = (focus) => html`
  <div class="state state-empty board-note">
    <span class="empty-icon" aria-hidden="true">${icon('leaf')}</span>
    <p class="empty-title">${t(focus ? 'board.focusTitle' : 'board.offTitle')}</p>
    <p class="muted">${t(focus ? 'board.focusText' : 'board.offText')}</p>
    <a class="btn btn-secondary" href="/app/settings">${icon('sliders')}<span>${t('nav.settings')}</span></a>
  </div>`;

const joinPanel = () => html`
  <section class="panel board-intro" aria-labelledby="join-title">
    <span class="empty-icon" aria-hidden="true">${icon('trophy')}</span>
    <h2 id="join-title">${t('board.joinTitle')}</h2>
    <ul class="board-points">
      <li>${icon('check')}<span>${t('board.point.voluntary')}</span></li>
      <li>${icon('check')}<span>${t('board.point.name', { name: session.user()?.name ?? '' })}</span></li>
      <li>${icon('check')}<span>${t('board.point.daily')}</span></li>
      <li>${icon('check')}<span>${t('board.point.leave')}</span></li>
    </ul>
    <div><button type="button" class="btn btn-primary" id="join">${t('board.join')}</button></div>
  </section>`;

/** Until the learner joins, the page explains the leaderboard and offers the switch. */
function showJoin(root, reload) {
  render(root, frame(joinPanel()));
  const join = root.querySelector('#join');
  join.addEventListener('click', async () => {
    setBusy(join, true);
    try {
      await saveSettings({ leaderboardOptIn: true });
      toast(t('board.joined'));
      await reload();
      root.querySelector('[role=tab][aria-selected=true]')?.focus();
    } catch (error) {
      setBusy(join, false);
      if (error.status !== 401) toast(errorText(error, 'settings.saveError'), 'error');
    }
  });
}

const boardTemplate = (metric) => html`
  <div class="tabs" role="tablist" aria-label="${t('board.metric')}">
    ${METRICS.map((m) => html`
      <button type="button" role="tab" id="tab-${m}" class="tab" aria-controls="board-panel"
        aria-selected="${m === metric ? 'true' : 'false'}" tabindex="${m === metric ? '0' : '-1'}" data-metric="${m}">
        ${icon(m === 'cards' ? 'cards' : 'globe')}<span>${t(`board.tab.${m}`)}</span>
      </button>`)}
  </div>
  <section class="panel panel-flush" id="board-panel" role="tabpanel" aria-labelledby="tab-${metric}" tabindex="0">
    <div id="board"></div>
  </section>
  <div class="board-leave">
    <button type="button" class="btn btn-ghost btn-sm" id="leave">${t('board.leave')}</button>
  </div>`;

/** The leaderboard of a learner who joined: owns the metric shown (kept in the URL) and the
 * request under way (destroy ends it). */
class BoardScreen {
  constructor(root, metric, reload) {
    Object.assign(this, { root, metric, reload });
    this.controller = new AbortController();
    render(root, frame(boardTemplate(metric)));
    this.host = root.querySelector('#board');
    this.panel = root.querySelector('#board-panel');
    this.listen();
  }

  destroy() {
    this.controller.abort();
  }

  listen() {
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
    this.root.querySelector('#leave').addEventListener('click', (event) => this.leave(event.currentTarget));
  }

  async load() {
    const { host } = this;
    render(host, loadingView(t('loading')));
    host.setAttribute('aria-busy', 'true');
    try {
      const board = await api.leaderboard(this.metric, { signal: this.controller.signal });
      host.removeAttribute('aria-busy');
      render(host, table(board, this.metric));
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
    next === 'cards' ? url.searchParams.delete('metric') : url.searchParams.set('metric', next);
    history.replaceState(history.state, '', url.pathname + url.search);
    this.load();
  }

  async leave(button) {
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

function table(board, metric) {
  const entries = board.entries || [];
  const meListed = entries.some((e) => e.isMe);
  if (!entries.length) {
    return html`
      <div class="state state-empty">
        <span class="empty-icon" aria-hidden="true">${icon('leaf')}</span>
        <p class="empty-title">${t('board.empty')}</p>
        <p class="muted">${t('board.emptyText')}</p>
      </div>`;
  }
  return html`
    <table class="board-table">
      <caption class="visually-hidden">${t(`board.caption.${metric}`)}</caption>
      <thead><tr><th scope="col" class="col-rank">${t('board.rank')}</th><th scope="col">${t('board.name')}</th><th scope="col" class="col-value">${t(`board.value.${metric}`)}</th></tr></thead>
      <tbody>
        ${entries.map((e) => row(e.rank, e.name, e.value, e.isMe))}
        ${!meListed && board.me ? html`
          <tr class="board-gap" aria-hidden="true"><td colspan="3">…</td></tr>
          ${row(board.me.rank, session.user()?.name ?? '', board.me.value, true)}` : ''}
      </tbody>
    </table>
    ${board.me ? '' : html`<p class="small muted board-foot">${t('board.notYet')}</p>`}`;
}

const row = (rank, name, value, isMe) => html`
  <tr class="${isMe ? 'is-me' : ''}" ${isMe ? html`aria-current="true"` : ''}>
    <td class="col-rank">${formatNumber(rank)}</td>
    <td class="col-name">${name}${isMe ? html` <span class="pill pill-due">${t('board.you')}</span>` : ''}</td>
    <td class="col-value">${formatNumber(value)}</td>
  </tr>`;

// The leaderboard's markup (views/leaderboard.js, leaderboard/board.js): the page's frame, the
// note in focus mode or with game elements off, the invitation to join, the tabs and the table.
// Rendering only.

import { html } from '../../html.js';
import { formatNumber, t } from '../../i18n.js';
import { session } from '../../api/client.js';
import { backLink, icon } from '../../ui.js';

export const METRICS = ['cards', 'topics'];

/** The page around `body`: breadcrumb back to the statistics, heading. */
const frame = (body) => html`
    <section class="page page-narrow leaderboard">
      <nav class="breadcrumb" aria-label="Breadcrumb">${backLink('/app/stats', t('stats.title'))}</nav>
      <header class="page-header"><div><h1>${t('board.title')}</h1><p class="muted">${t('board.lead')}</p></div></header>
      ${body}
    </section>`;

/** No leaderboard: focus mode (`focus`) or game elements off. */
export const noteMarkup = (focus) => frame(html`
      <div class="state state-empty board-note">
        <span class="empty-icon" aria-hidden="true">${icon('leaf')}</span>
        <p class="empty-title">${t(focus ? 'board.focusTitle' : 'board.offTitle')}</p>
        <p class="muted">${t(focus ? 'board.focusText' : 'board.offText')}</p>
        <a class="btn btn-secondary" href="/app/settings">${icon('sliders')}<span>${t('nav.settings')}</span></a>
      </div>`);

export const joinMarkup = () => frame(html`
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
      </section>`);

/** The board with its tabs Karten / Themen (`metric` selected). */
export const boardMarkup = (metric) => frame(html`
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
    </div>`);

export function table(board, metric) {
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

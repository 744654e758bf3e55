// The match game's markup (views/match.js, match/game.js): page, intro, board, result. Rendering only.

import { html } from '../../html.js';
import { locale, t } from '../../i18n.js';
import { icon, stackBreadcrumb } from '../../ui.js';

/** "0:23,4": minutes, seconds and tenths in the user's locale. */
export function formatClock(ms) {
  const tenths = Math.floor(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  const s = new Intl.NumberFormat(locale(), { minimumIntegerDigits: 2, minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(seconds);
  return `${minutes}:${s}`;
}

export const pageMarkup = (stack, backUrl) => html`
    <section class="page match">
      ${stackBreadcrumb(stack, backUrl, t('study.mode.match'))}
      <header class="page-header">
        <div>
          <h1>${t('match.title')}</h1>
          <p class="muted">${t('match.lead')}</p>
        </div>
        <p class="match-clock" aria-hidden="true"><span id="clock">0:00,0</span></p>
      </header>
      <p class="visually-hidden" id="announce" role="status" aria-live="polite"></p>
      <div id="match-body"></div>
    </section>`;

export const tooFewMarkup = (backUrl) => html`
        <div class="state state-empty">
          <span class="empty-icon" aria-hidden="true">${icon('grid')}</span>
          <p class="empty-title">${t('match.tooFew')}</p>
          <p class="muted">${t('match.tooFewText')}</p>
          <a class="btn btn-primary" href="${backUrl}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>
        </div>`;

export const introMarkup = (count, best) => html`
      <div class="panel match-intro">
        <p>${t('match.rules', { count })}</p>
        <p class="muted" id="best">${best}</p>
        <p class="small muted">${t('match.practice')}</p>
        <button type="button" class="btn btn-primary btn-lg" id="match-start">${icon('play')}<span>${t('match.start')}</span></button>
      </div>`;

export const boardMarkup = (tiles) => html`
      <div class="match-board" id="board" role="group" aria-label="${t('match.board')}">
        ${tiles.map((tile, i) => html`
          <button type="button" class="tile tile-${tile.side}" data-index="${i}" aria-pressed="false"
            aria-label="${t(tile.side === 'q' ? 'match.question' : 'match.answer')}: ${tile.text}">
            <span class="tile-text">${tile.text}</span>
          </button>`)}
      </div>
      <p class="kbd-help small muted">${t('match.keys')}</p>`;

export const resultMarkup = (ms, count, backUrl) => html`
      <div class="panel match-result state-done" role="status">
        <span class="success-icon celebrate" aria-hidden="true">${icon('check')}</span>
        <h2 id="match-time">${t('match.done', { time: formatClock(ms), count })}</h2>
        <p class="muted" id="match-best">${t('match.saving')}</p>
        <div class="form-actions">
          <a class="btn btn-secondary" href="${backUrl}">${t('learn.toStack')}</a>
          <button type="button" class="btn btn-primary" id="match-again">${t('match.again')}</button>
        </div>
      </div>`;

// The render units of a stack's page (views/stack-detail.js): templates of what they are given, no
// listeners and no state. `view`: {stack, base (the stack's URL), q, bookmarkedOnly}.

import { html } from '../../html.js';
import { dueCountValue, formatDateTime, formatNumber, t } from '../../i18n.js';
import { cardPlainText } from '../../rich-text.js';
import { defineIcons, icon, stacksBreadcrumb } from '../../ui.js';
import { stackBadge } from '../dashboard.js';

defineIcons({ share: 'M8.6 13.5l6.8 4M15.4 6.5l-6.8 4M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm12 7a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z' });

/** A card's question shortened for a label (the edit link names the card by it). */
const shortText = (text, max = 40) => {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
};

export const pageTemplate = (view) => html`
  <section class="page">
    ${stacksBreadcrumb(view.stack.name)}
    ${stackHeader(view)}
    ${cardsPanel(view)}
  </section>`;

const stackHeader = ({ stack, base }) => html`
  <header class="page-header stack-header">
    <div class="stack-title" data-color="${stack.color}">
      ${stackBadge(stack, 'badge-lg')}
      <div>
        <h1>${stack.name}</h1>
        <p class="muted" id="stack-stats">
          ${t('dash.cards', { count: stack.cardCount })} · ${t('dash.due', { count: dueCountValue(stack.dueCount) })}
        </p>
        ${stack.scheduler === 'fsrs' && stack.cardCount > 0 ? html`<p class="muted small" id="stack-workload" hidden><a href="${base}/stats#workload"></a></p>` : ''}
      </div>
    </div>
    <div class="actions">
      <a class="btn btn-secondary" href="${base}/edit">${icon('pencil')}<span>${t('edit')}</span></a>
      <button type="button" class="btn btn-secondary" id="delete-stack">${icon('trash')}<span>${t('delete')}</span></button>
      <button type="button" class="btn btn-secondary" id="share-stack" aria-haspopup="dialog">${icon('share')}<span>${t('detail.share')}</span></button>
      <a class="btn btn-secondary btn-stats" href="${base}/stats">${icon('chart')}<span>${t('detail.stats')}</span></a>
      ${stack.cardCount > 0 ? html`<button type="button" class="btn btn-secondary" id="partner-open" aria-haspopup="dialog">${icon('chat')}<span>${t('partner.open')}</span></button>` : ''}
      <details class="menu" id="export-menu">
        <summary class="btn btn-secondary">${icon('download')}<span>${t('detail.export')}</span></summary>
        <div class="menu-list">
          <button type="button" class="btn btn-ghost" data-export="csv">${t('detail.exportCsv')}</button>
          <button type="button" class="btn btn-ghost" data-export="tsv">${t('detail.exportTsv')}</button>
          <button type="button" class="btn btn-ghost" data-export="apkg">${t('detail.exportApkg')}</button>
          <button type="button" class="btn btn-ghost" data-export="json">${t('detail.exportJson')}</button>
        </div>
      </details>
      ${stack.cardCount > 0 ? html`<a class="btn btn-magic" href="${base}/create">${icon('sparkles')}<span>${t('detail.magic')}</span></a>` : ''}
      <a class="btn btn-primary" href="${base}/study">${icon('play')}<span>${t('detail.learn')}</span></a>
    </div>
  </header>`;

const cardsPanel = ({ id, base, q, bookmarkedOnly }) => html`
  <section class="panel panel-flush" aria-labelledby="cards-title">
    <div class="panel-head">
      <div>
        <h2 id="cards-title">${t('detail.cardsTitle')}</h2>
        <p class="muted">${t('detail.cardsLead')}</p>
      </div>
      <span class="actions">
        <a class="btn btn-secondary" href="/app/import?stack=${id}">${icon('upload')}<span>${t('detail.import')}</span></a>
        <a class="btn btn-primary" href="${base}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>
      </span>
    </div>
    <div class="toolbar" role="search">
      <label class="search">
        <span class="visually-hidden">${t('detail.search')}</span>
        ${icon('search')}
        <input type="search" id="card-search" placeholder="${t('detail.searchPlaceholder')}" value="${q}" autocomplete="off">
      </label>
      <fieldset class="filter-toggle" id="card-filter">
        <legend class="visually-hidden">${t('detail.filter')}</legend>
        <label class="filter-option">
          <input type="radio" name="filter" value="all" ${bookmarkedOnly ? '' : 'checked'}>
          <span>${t('detail.filterAll')}</span>
        </label>
        <label class="filter-option">
          <input type="radio" name="filter" value="bookmarked" ${bookmarkedOnly ? 'checked' : ''}>
          <span>${icon('bookmark')}${t('detail.filterBookmarked')}</span>
        </label>
      </fieldset>
    </div>
    <div id="cards" aria-live="polite"></div>
  </section>`;

/** No cards to list: no hits for the search, no bookmarks, or an empty stack with its next steps. */
export function emptyCards({ base, q, bookmarkedOnly }) {
  if (q) return html`<div class="state"><p>${t(bookmarkedOnly ? 'detail.noBookmarkedResults' : 'detail.noResults', { q })}</p></div>`;
  if (bookmarkedOnly) {
    return html`<div class="state state-empty" id="no-bookmarks">
      <span class="empty-icon" aria-hidden="true">${icon('bookmark')}</span>
      <p class="empty-title">${t('detail.emptyBookmarks')}</p>
      <p class="muted">${t('detail.emptyBookmarksText')}</p>
    </div>`;
  }
  return html`<div class="state state-empty" id="next-steps">
    <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
    <p class="empty-title">${t('detail.emptyCards')}</p>
    <p class="muted">${t('detail.emptyCardsText')}</p>
    <div class="actions next-steps">
      <a class="btn btn-primary" href="${base}/cards/new">${icon('plus')}<span>${t('detail.addCards')}</span></a>
      <a class="btn btn-magic" href="${base}/create">${icon('sparkles')}<span>${t('detail.magic')}</span></a>
    </div>
  </div>`;
}

/** A page of cards (`result` of GET …/cards) with the pager. */
export function cardsTable(result, pages, base) {
  const now = Date.now();
  return html`
    <div class="table-wrap">
      <table class="cards-table">
        <thead>
          <tr>
            <th scope="col" class="col-front">${t('detail.colFront')}</th>
            <th scope="col" class="col-back">${t('detail.colBack')}</th>
            <th scope="col" class="col-due">${t('detail.colDue')}</th>
            <th scope="col" class="col-edit"><span class="visually-hidden">${t('detail.colEdit')}</span></th>
          </tr>
        </thead>
        <tbody>
          ${result.items.map((card, index) => cardRow(card, index, { now, base }))}
        </tbody>
      </table>
    </div>
    ${pager(result, pages)}`;
}

/**
 * A card of another kind is listed as the learner sees it, with its kind named; a rich card
 * rendered on one line (its plain words meanwhile and in the title), with its images as small
 * pictures (both filled in by the screen).
 */
function cardRow(card, index, { now, base }) {
  const rich = card.format === 'markdown';
  const front = rich ? cardPlainText(card, 'question') : card.shown?.question ?? card.question;
  const back = rich ? cardPlainText(card, 'answer') : card.shown?.answer ?? card.answer;
  const images = (field) => (rich && card.rendered?.[field]?.includes('card-image')
    ? html`<span class="card-images" data-card-images="${index}" data-field="${field}"></span>` : '');
  const line = (field) => (rich ? html` data-card-line="${index}" data-field="${field}"` : '');
  const bookmark = card.bookmarked
    ? html`<span class="bookmark-mark" title="${t('detail.bookmarked')}">${icon('bookmark')}<span class="visually-hidden">${t('detail.bookmarked')}:</span></span>`
    : '';
  const kind = card.kind && card.kind !== 'basic' ? html`<span class="pill pill-kind">${t(`kind.${card.kind}`)}</span> ` : '';
  return html`
    <tr${card.bookmarked ? html` class="is-bookmarked"` : ''}>
      <td class="col-front"><span class="front">${bookmark}${kind}<span class="truncate" title="${front}"${line('question')}>${front}</span></span>${images('question')}</td>
      <td class="col-back"><span class="truncate muted" title="${back}"${line('answer')}>${back}</span>${images('answer')}</td>
      <td class="col-due"><span class="show-sm due-icon">${icon('clock')}</span>${new Date(card.dueAt).getTime() <= now
          ? html`<span class="pill pill-due">${t('detail.dueNow')}</span>`
          : t('detail.dueTime', { date: formatDateTime(card.dueAt) })}</td>
      <td class="col-edit">
        <button type="button" class="btn btn-ghost btn-icon partner-card" data-partner="${index}" aria-haspopup="dialog"
          aria-label="${t('partner.openCard', { q: shortText(front) })}" title="${t('partner.open')}">${icon('chat')}</button>
        <a class="link" href="${base}/cards/${card.id}" aria-label="${t('detail.editCard', { q: shortText(front) })}">${icon('pencil')}<span class="hide-sm">${t('detail.colEdit')}</span></a>
      </td>
    </tr>`;
}

function pager(result, pages) {
  const from = (result.page - 1) * result.perPage + 1;
  const to = from + result.items.length - 1;
  return html`
    <nav class="pager" aria-label="${t('detail.pageOf', { page: result.page, pages })}">
      <span class="muted small">${t('detail.range', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(result.total) })}</span>
      <span class="pager-buttons">
        <button type="button" class="btn btn-secondary btn-icon" data-page="${result.page - 1}" ${result.page <= 1 ? 'disabled' : ''} aria-label="${t('detail.prev')}">${icon('back')}</button>
        <span class="small">${t('detail.pageOf', { page: result.page, pages })}</span>
        <button type="button" class="btn btn-secondary btn-icon" data-page="${result.page + 1}" ${result.page >= pages ? 'disabled' : ''} aria-label="${t('detail.next')}">${icon('chevron')}</button>
      </span>
    </nav>`;
}

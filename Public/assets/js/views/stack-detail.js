// A stack with its cards: search, paging and the bookmark filter go to the API (q, page, perPage,
// bookmarked), so a stack with 10,000 cards loads one page at a time. The URL keeps them
// (`?q=…&page=…&filter=bookmarked`), so a reload or Back shows the same list.

import { html, render } from '../html.js';
import { dueCountValue, formatDateTime, formatNumber, t } from '../i18n.js';
import { api } from '../api/client.js';
import { exportStack } from '../api/transfer.js';
import { cardPlainText, setCardImages, setCardLine } from '../rich-text.js';
import { leaveTo } from '../router.js';
import {
  confirmDialog, defineIcons, errorText, errorView, icon, loadStylesheet, loadingView, saveFile, stacksBreadcrumb, toast,
} from '../ui.js';
import { stackBadge } from './dashboard.js';

const PER_PAGE = 25;

defineIcons({ share: 'M8.6 13.5l6.8 4M15.4 6.5l-6.8 4M18 8a3 3 0 1 0 0-6 3 3 0 0 0 0 6ZM6 15a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm12 7a3 3 0 1 0 0-6 3 3 0 0 0 0 6Z' });

/** A card's question shortened for a label (the edit link names the card by it). */
const shortText = (text, max = 40) => {
  const chars = Array.from(text.replace(/\s+/g, ' ').trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
};

export async function mount(root, { params, query, navigate }) {
  const id = params.stackId;
  let stack;
  render(root, loadingView(t('loading')));
  try {
    // The export menu's styles come with the import's (css/import.css).
    [stack] = await Promise.all([api.stack(id), loadStylesheet('/assets/css/import.css')]);
  } catch (error) {
    if (error.status === 401) return;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', () => mount(root, { params, query, navigate }));
    return;
  }

  let page = Math.max(1, Number(query.get('page')) || 1);
  let q = query.get('q') || '';
  let bookmarkedOnly = query.get('filter') === 'bookmarked';
  const base = `/app/stacks/${id}`;

  render(root, html`
    <section class="page">
      ${stacksBreadcrumb(stack.name)}
      <header class="page-header stack-header">
        <div class="stack-title" data-color="${stack.color}">
          ${stackBadge(stack, 'badge-lg')}
          <div>
            <h1>${stack.name}</h1>
            <p class="muted" id="stack-stats">
              ${t('dash.cards', { count: stack.cardCount })} · ${t('dash.due', { count: dueCountValue(stack.dueCount) })}
            </p>
          </div>
        </div>
        <div class="actions">
          <a class="btn btn-secondary" href="${base}/edit">${icon('pencil')}<span>${t('edit')}</span></a>
          <button type="button" class="btn btn-secondary" id="delete-stack">${icon('trash')}<span>${t('delete')}</span></button>
          <button type="button" class="btn btn-secondary" id="share-stack" aria-haspopup="dialog">${icon('share')}<span>${t('detail.share')}</span></button>
          <a class="btn btn-secondary btn-stats" href="${base}/stats">${icon('chart')}<span>${t('detail.stats')}</span></a>
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
      </header>

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
      </section>
    </section>`);

  const host = root.querySelector('#cards');
  const search = root.querySelector('#card-search');
  const filter = root.querySelector('#card-filter');
  let controller = null;
  let timer = null;

  async function load() {
    controller?.abort();
    controller = new AbortController();
    const url = new URL(location.href);
    page > 1 ? url.searchParams.set('page', page) : url.searchParams.delete('page');
    q ? url.searchParams.set('q', q) : url.searchParams.delete('q');
    bookmarkedOnly ? url.searchParams.set('filter', 'bookmarked') : url.searchParams.delete('filter');
    // The entry keeps its state (the page it was opened from, see router.js leaveTo).
    history.replaceState(history.state, '', url.pathname + url.search);
    host.setAttribute('aria-busy', 'true');
    if (!host.querySelector('table')) render(host, loadingView(t('detail.loadingCards')));
    try {
      const result = await api.cards(id, { page, perPage: PER_PAGE, q, bookmarked: bookmarkedOnly || undefined },
        { signal: controller.signal });
      host.removeAttribute('aria-busy');
      const pages = Math.max(1, Math.ceil(result.total / result.perPage));
      if (page > pages && result.total > 0) { page = pages; return load(); }
      render(host, result.items.length ? table(result, pages) : emptyCards());
      for (const holder of host.querySelectorAll('[data-card-images]')) {
        setCardImages(holder, result.items[Number(holder.dataset.cardImages)], holder.dataset.field);
      }
      // A rich card's text on its line: formatting and formulas rendered, blocks run on with " · ".
      for (const line of host.querySelectorAll('[data-card-line]')) {
        setCardLine(line, result.items[Number(line.dataset.cardLine)], line.dataset.field);
      }
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      host.removeAttribute('aria-busy');
      render(host, errorView(t('detail.cardsError')));
    }
  }

  const emptyCards = () => q
    ? html`<div class="state"><p>${t(bookmarkedOnly ? 'detail.noBookmarkedResults' : 'detail.noResults', { q })}</p></div>`
    : bookmarkedOnly ? html`<div class="state state-empty" id="no-bookmarks">
        <span class="empty-icon" aria-hidden="true">${icon('bookmark')}</span>
        <p class="empty-title">${t('detail.emptyBookmarks')}</p>
        <p class="muted">${t('detail.emptyBookmarksText')}</p>
      </div>`
    : html`<div class="state state-empty" id="next-steps">
        <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
        <p class="empty-title">${t('detail.emptyCards')}</p>
        <p class="muted">${t('detail.emptyCardsText')}</p>
        <div class="actions next-steps">
          <a class="btn btn-primary" href="${base}/cards/new">${icon('plus')}<span>${t('detail.addCards')}</span></a>
          <a class="btn btn-magic" href="${base}/create">${icon('sparkles')}<span>${t('detail.magic')}</span></a>
        </div>
      </div>`;

  const table = (result, pages) => {
    const now = Date.now();
    const from = (result.page - 1) * result.perPage + 1;
    const to = from + result.items.length - 1;
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
            ${result.items.map((card, index) => {
              // A card of another kind is listed as the learner sees it, with its kind named; a
              // rich card rendered on one line (its plain words meanwhile and in the title), with
              // its images as small pictures (both filled in below).
              const rich = card.format === 'markdown';
              const front = rich ? cardPlainText(card, 'question') : card.shown?.question ?? card.question;
              const back = rich ? cardPlainText(card, 'answer') : card.shown?.answer ?? card.answer;
              const images = (field) => rich && card.rendered?.[field]?.includes('card-image')
                ? html`<span class="card-images" data-card-images="${index}" data-field="${field}"></span>` : '';
              const line = (field) => (rich ? html` data-card-line="${index}" data-field="${field}"` : '');
              return html`
              <tr${card.bookmarked ? html` class="is-bookmarked"` : ''}>
                <td class="col-front"><span class="front">${card.bookmarked
                  ? html`<span class="bookmark-mark" title="${t('detail.bookmarked')}">${icon('bookmark')}<span class="visually-hidden">${t('detail.bookmarked')}:</span></span>`
                  : ''}${card.kind && card.kind !== 'basic' ? html`<span class="pill pill-kind">${t(`kind.${card.kind}`)}</span> ` : ''}<span class="truncate" title="${front}"${line('question')}>${front}</span></span>${images('question')}</td>
                <td class="col-back"><span class="truncate muted" title="${back}"${line('answer')}>${back}</span>${images('answer')}</td>
                <td class="col-due"><span class="show-sm due-icon">${icon('clock')}</span>${new Date(card.dueAt).getTime() <= now
                    ? html`<span class="pill pill-due">${t('detail.dueNow')}</span>`
                    : t('detail.dueTime', { date: formatDateTime(card.dueAt) })}</td>
                <td class="col-edit">
                  <a class="link" href="${base}/cards/${card.id}" aria-label="${t('detail.editCard', { q: shortText(front) })}">${icon('pencil')}<span class="hide-sm">${t('detail.colEdit')}</span></a>
                </td>
              </tr>`;
            })}
          </tbody>
        </table>
      </div>
      <nav class="pager" aria-label="${t('detail.pageOf', { page: result.page, pages })}">
        <span class="muted small">${t('detail.range', { from: formatNumber(from), to: formatNumber(to), total: formatNumber(result.total) })}</span>
        <span class="pager-buttons">
          <button type="button" class="btn btn-secondary btn-icon" data-page="${result.page - 1}" ${result.page <= 1 ? 'disabled' : ''} aria-label="${t('detail.prev')}">${icon('back')}</button>
          <span class="small">${t('detail.pageOf', { page: result.page, pages })}</span>
          <button type="button" class="btn btn-secondary btn-icon" data-page="${result.page + 1}" ${result.page >= pages ? 'disabled' : ''} aria-label="${t('detail.next')}">${icon('chevron')}</button>
        </span>
      </nav>`;
  };

  host.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-page]');
    if (button) { page = Number(button.dataset.page); load(); return; }
    if (event.target.closest('[data-retry]')) load();
  });
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { q = search.value.trim(); page = 1; load(); }, 200);
  });
  filter.addEventListener('change', (event) => {
    bookmarkedOnly = event.target.value === 'bookmarked';
    page = 1;
    load();
  });

  root.querySelector('#share-stack').addEventListener('click', async (event) => {
    const button = event.currentTarget;
    const { openShareDialog } = await import('../share-dialog.js');
    await openShareDialog(stack);
    if (button.isConnected) button.focus();
  });

  root.querySelector('#delete-stack').addEventListener('click', async () => {
    const ok = await confirmDialog({
      title: t('detail.deleteTitle'),
      text: t('detail.deleteText', { name: stack.name, count: stack.cardCount }),
      confirmLabel: t('delete'),
    });
    if (!ok) return;
    try {
      await api.deleteStack(id);
      toast(t('stack.deleted', { name: stack.name }));
      leaveTo('/app/stacks');
    } catch (error) {
      if (error.status !== 401) toast(t('detail.deleteError'), 'error');
    }
  });

  // "Exportieren": a menu of CSV (Excel), TSV (Quizlet, Anki), an Anki package and a JSON backup of
  // the stack with its history; the file is fetched with the token and saved under the server's name.
  const menu = root.querySelector('#export-menu');
  const closeMenu = () => { menu.open = false; };
  menu.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && menu.open) { closeMenu(); menu.querySelector('summary').focus(); }
  });
  menu.addEventListener('focusout', (event) => { if (!menu.contains(event.relatedTarget)) closeMenu(); });
  menu.addEventListener('click', async (event) => {
    const format = event.target.closest('[data-export]')?.dataset.export;
    if (!format) return;
    closeMenu();
    const summary = menu.querySelector('summary');
    summary.focus();
    summary.classList.add('is-busy');
    try {
      const { blob, name } = await exportStack(id, format);
      saveFile(blob, name || `${stack.name}.${format}`);
    } catch (error) {
      if (error.status !== 401) toast(t('detail.exportError'), 'error');
    } finally {
      summary.classList.remove('is-busy');
    }
  });

  await load();
  return () => { controller?.abort(); clearTimeout(timer); };
}

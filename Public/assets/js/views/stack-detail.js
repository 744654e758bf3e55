// A stack with its cards: search and paging go to the API (q, page, perPage), so a stack with
// 10,000 cards loads one page at a time.

import { html, render } from '../html.js';
import { dueCountValue, formatDateTime, formatNumber, t } from '../i18n.js';
import { api } from '../api/client.js';
import { confirmDialog, errorText, errorView, icon, loadingView, toast } from '../ui.js';
import { badgeText } from './dashboard.js';

const PER_PAGE = 25;

/** The first six characters of the id, upper-case, as the original showed it. */
const shortId = (id) => id.replace(/-/g, '').slice(0, 6).toUpperCase();

export async function mount(root, { params, query, navigate }) {
  const id = params.stackId;
  let stack;
  render(root, loadingView(t('loading')));
  try {
    stack = await api.stack(id);
  } catch (error) {
    if (error.status === 401) return;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', () => mount(root, { params, query, navigate }));
    return;
  }

  let page = Math.max(1, Number(query.get('page')) || 1);
  let q = query.get('q') || '';
  const base = `/app/stacks/${id}`;

  render(root, html`
    <section class="page">
      <nav class="breadcrumb" aria-label="Breadcrumb">
        <a href="/app/stacks" class="crumb-back">${icon('back')}<span>${t('detail.crumbStacks')}</span></a>
        <span class="crumb-sep hide-sm" aria-hidden="true">/</span>
        <span class="hide-sm" aria-current="page">${stack.name}</span>
      </nav>
      <header class="page-header stack-header">
        <div class="stack-title" data-color="${stack.color}">
          <span class="badge badge-lg" aria-hidden="true">${badgeText(stack.name)}</span>
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
          <a class="btn btn-magic" href="${base}/create">${icon('sparkles')}<span>${t('detail.magic')}</span></a>
          <a class="btn btn-primary" href="${base}/learn">${icon('play')}<span>${t('detail.learn')}</span></a>
        </div>
      </header>

      <section class="panel panel-flush" aria-labelledby="cards-title">
        <div class="panel-head">
          <div>
            <h2 id="cards-title">${t('detail.cardsTitle')}</h2>
            <p class="muted">${t('detail.cardsLead')}</p>
          </div>
          <a class="btn btn-primary" href="${base}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>
        </div>
        <div class="toolbar" role="search">
          <label class="search">
            <span class="visually-hidden">${t('detail.search')}</span>
            ${icon('search')}
            <input type="search" id="card-search" placeholder="${t('detail.searchPlaceholder')}" value="${q}" autocomplete="off">
          </label>
        </div>
        <div id="cards" aria-live="polite"></div>
      </section>
    </section>`);

  const host = root.querySelector('#cards');
  const search = root.querySelector('#card-search');
  let controller = null;
  let timer = null;

  async function load() {
    controller?.abort();
    controller = new AbortController();
    const url = new URL(location.href);
    page > 1 ? url.searchParams.set('page', page) : url.searchParams.delete('page');
    q ? url.searchParams.set('q', q) : url.searchParams.delete('q');
    history.replaceState(null, '', url.pathname + url.search);
    host.setAttribute('aria-busy', 'true');
    if (!host.querySelector('table')) render(host, loadingView(t('detail.loadingCards')));
    try {
      const result = await api.cards(id, { page, perPage: PER_PAGE, q }, { signal: controller.signal });
      host.removeAttribute('aria-busy');
      const pages = Math.max(1, Math.ceil(result.total / result.perPage));
      if (page > pages && result.total > 0) { page = pages; return load(); }
      render(host, result.items.length ? table(result, pages) : emptyCards());
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      host.removeAttribute('aria-busy');
      render(host, errorView(t('detail.cardsError')));
    }
  }

  const emptyCards = () => q
    ? html`<div class="state"><p>${t('detail.noResults', { q })}</p></div>`
    : html`<div class="state state-empty">
        <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
        <p class="empty-title">${t('detail.emptyCards')}</p>
        <p class="muted">${t('detail.emptyCardsText')}</p>
        <a class="btn btn-primary" href="${base}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>
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
              <th scope="col" class="col-id">${t('detail.colId')}</th>
              <th scope="col">${t('detail.colFront')}</th>
              <th scope="col" class="hide-sm">${t('detail.colBack')}</th>
              <th scope="col" class="hide-sm col-due">${t('detail.colDue')}</th>
              <th scope="col" class="col-edit"><span class="visually-hidden">${t('detail.colEdit')}</span></th>
            </tr>
          </thead>
          <tbody>
            ${result.items.map((card) => html`
              <tr>
                <td class="col-id"><code>${shortId(card.id)}</code></td>
                <td><span class="truncate" title="${card.question}">${card.question}</span></td>
                <td class="hide-sm"><span class="truncate muted" title="${card.answer}">${card.answer}</span></td>
                <td class="hide-sm col-due">
                  ${new Date(card.dueAt).getTime() <= now
                    ? html`<span class="pill pill-due">${t('detail.dueNow')}</span>`
                    : t('detail.dueTime', { date: formatDateTime(card.dueAt) })}
                </td>
                <td class="col-edit">
                  <a class="link" href="${base}/cards/${card.id}" aria-label="${t('detail.editCard', { id: shortId(card.id) })}">${icon('pencil')}<span class="hide-sm">${t('detail.colEdit')}</span></a>
                </td>
              </tr>`)}
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
      navigate('/app/stacks');
    } catch (error) {
      if (error.status !== 401) toast(t('detail.deleteError'), 'error');
    }
  });

  await load();
  return () => { controller?.abort(); clearTimeout(timer); };
}

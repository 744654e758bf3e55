// The logic of a stack's page (views/stack-detail.js): one StackScreen per visit owns the list's
// state (page, search, bookmark filter, kept in the URL), the request under way and the search's
// pause timer (destroy ends both), the line on the month ahead, and the stack's actions: share,
// delete, export, and the study partner on the stack or one of its cards (partner-panel.js, loaded
// when first opened; destroy closes it and ends its answer).

import { render } from '../../html.js';
import { t } from '../../i18n.js';
import { api, request } from '../../api/client.js';
import { exportStack } from '../../api/transfer.js';
import { setCardImages, setCardLine } from '../../rich-text.js';
import { leaveTo } from '../../router.js';
import { confirmDialog, errorView, loadingView, saveFile, toast } from '../../ui.js';
import { cardsTable, emptyCards } from './render.js';

const PER_PAGE = 25;

export class StackScreen {
  /** `view`: {stack, base, q, bookmarkedOnly} (stack-detail.js), `page`: the list's page. */
  constructor(root, view, page) {
    this.root = root;
    this.view = view;
    this.page = page;
    this.controller = null;
    this.timer = null;
    this.items = []; // the cards of the page shown
    this.partner = null; // the study partner's panel last opened
    this.screen = new AbortController(); // ends the partner's panel
    this.host = root.querySelector('#cards');
    this.workload = new AbortController();
    this.listen();
    this.listenExport(root.querySelector('#export-menu'));
    this.showWorkload();
  }

  destroy() {
    this.screen.abort();
    this.workload.abort();
    this.controller?.abort();
    clearTimeout(this.timer);
  }

  listen() {
    const { root, host, view } = this;
    host.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-page]');
      if (button) { this.page = Number(button.dataset.page); this.load(); return; }
      const partner = event.target.closest('button[data-partner]');
      if (partner) { this.openPartner(partner, this.items[Number(partner.dataset.partner)]); return; }
      if (event.target.closest('[data-retry]')) this.load();
    });
    const search = root.querySelector('#card-search');
    search.addEventListener('input', () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => { view.q = search.value.trim(); this.page = 1; this.load(); }, 200);
    });
    root.querySelector('#card-filter').addEventListener('change', (event) => {
      view.bookmarkedOnly = event.target.value === 'bookmarked';
      this.page = 1;
      this.load();
    });
    root.querySelector('#share-stack').addEventListener('click', (event) => this.share(event.currentTarget));
    root.querySelector('#delete-stack').addEventListener('click', () => this.remove());
    root.querySelector('#partner-open')?.addEventListener('click', (event) => this.openPartner(event.currentTarget, null));
  }

  /** One line on the month ahead (FSRS stacks), from the workload forecast; nothing without it. */
  async showWorkload() {
    const line = this.root.querySelector('#stack-workload');
    if (!line) return;
    try {
      const workload = await request('GET', `/stacks/${encodeURIComponent(this.view.stack.id)}/workload?days=30`, undefined,
        { signal: this.workload.signal });
      const minutes = Math.round(workload.averageMinutes);
      line.firstElementChild.textContent = minutes > 0 ? t('detail.workload', { count: minutes }) : t('detail.workloadCalm');
      line.hidden = false;
    } catch {
      // The line is a bonus: the page is complete without it.
    }
  }

  /** The list's state in the URL; the entry keeps its state (the page it was opened from, see
   * router.js leaveTo). */
  keepInUrl() {
    const { q, bookmarkedOnly } = this.view;
    const url = new URL(location.href);
    this.page > 1 ? url.searchParams.set('page', this.page) : url.searchParams.delete('page');
    q ? url.searchParams.set('q', q) : url.searchParams.delete('q');
    bookmarkedOnly ? url.searchParams.set('filter', 'bookmarked') : url.searchParams.delete('filter');
    history.replaceState(history.state, '', url.pathname + url.search);
  }

  async load() {
    const { host, view } = this;
    this.controller?.abort();
    this.controller = new AbortController();
    this.keepInUrl();
    host.setAttribute('aria-busy', 'true');
    if (!host.querySelector('table')) render(host, loadingView(t('detail.loadingCards')));
    try {
      const result = await api.cards(view.id, {
        page: this.page, perPage: PER_PAGE, q: view.q, bookmarked: view.bookmarkedOnly || undefined,
      }, { signal: this.controller.signal });
      host.removeAttribute('aria-busy');
      const pages = Math.max(1, Math.ceil(result.total / result.perPage));
      if (this.page > pages && result.total > 0) { this.page = pages; return this.load(); }
      this.showCards(result, pages);
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return undefined;
      host.removeAttribute('aria-busy');
      render(host, errorView(t('detail.cardsError')));
    }
    return undefined;
  }

  showCards(result, pages) {
    const { host } = this;
    this.items = result.items;
    render(host, result.items.length ? cardsTable(result, pages, this.view.base) : emptyCards(this.view));
    for (const holder of host.querySelectorAll('[data-card-images]')) {
      setCardImages(holder, result.items[Number(holder.dataset.cardImages)], holder.dataset.field);
    }
    // A rich card's text on its line: formatting and formulas rendered, blocks run on with " · ".
    for (const line of host.querySelectorAll('[data-card-line]')) {
      setCardLine(line, result.items[Number(line.dataset.cardLine)], line.dataset.field);
    }
  }

  /** The study partner on the stack (`card` null) or one card; the same subject's conversation
   * goes on where it was. */
  async openPartner(button, card) {
    if (card === undefined) return;
    const { stack } = this.view;
    const { PartnerPanel } = await import('../../partner-panel.js');
    if (this.screen.signal.aborted) return;
    if (!this.partner?.isAbout(stack.id, card?.id ?? null)) {
      this.partner?.destroy();
      this.partner = new PartnerPanel({ stack, card, signal: this.screen.signal });
    }
    await this.partner.open(button);
  }

  async share(button) {
    const { openShareDialog } = await import('../../share-dialog.js');
    await openShareDialog(this.view.stack);
    if (button.isConnected) button.focus();
  }

  async remove() {
    const { stack } = this.view;
    const ok = await confirmDialog({
      title: t('detail.deleteTitle'),
      text: t('detail.deleteText', { name: stack.name, count: stack.cardCount }),
      confirmLabel: t('delete'),
    });
    if (!ok) return;
    try {
      await api.deleteStack(this.view.id);
      toast(t('stack.deleted', { name: stack.name }));
      leaveTo('/app/stacks');
    } catch (error) {
      if (error.status !== 401) toast(t('detail.deleteError'), 'error');
    }
  }

  /** "Exportieren": a menu of CSV (Excel), TSV (Quizlet, Anki), an Anki package and a JSON backup
   * of the stack with its history; the file is fetched with the token and saved under the server's
   * name. */
  listenExport(menu) {
    const closeMenu = () => { menu.open = false; };
    menu.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && menu.open) { closeMenu(); menu.querySelector('summary').focus(); }
    });
    menu.addEventListener('focusout', (event) => { if (!menu.contains(event.relatedTarget)) closeMenu(); });
    menu.addEventListener('click', (event) => {
      const format = event.target.closest('[data-export]')?.dataset.export;
      if (!format) return;
      closeMenu();
      this.export(menu.querySelector('summary'), format);
    });
  }

  async export(summary, format) {
    const { stack } = this.view;
    summary.focus();
    summary.classList.add('is-busy');
    try {
      const { blob, name } = await exportStack(this.view.id, format);
      saveFile(blob, name || `${stack.name}.${format}`);
    } catch (error) {
      if (error.status !== 401) toast(t('detail.exportError'), 'error');
    } finally {
      summary.classList.remove('is-busy');
    }
  }
}

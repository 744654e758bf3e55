// A published stack (/app/explore/{entryId}): what it is, its cards a page at a time, "In meine
// Bibliothek kopieren" (the learner's own copy, new progress) and "Melden" (a dialog with a reason;
// the stack disappears for the reporter at once).

import { applyColors, html, render } from '../html.js';
import { formatNumber, loadStrings, t } from '../i18n.js';
import { navigate } from '../router.js';
import { backLink, errorText, errorView, icon, loadStylesheet, loadingView, setBusy, toast } from '../ui.js';
import { showCardPages, wireCopyButton } from '../card-pages.js';
import { authorLine, catalogue, entryPills } from './explore.js';
import { stackBadge } from './dashboard.js';
import { openModal } from '../../components/modal-dialog/modal-dialog.js';

const PER_PAGE = 50;
const REASONS = ['wrong', 'offensive', 'spam', 'copyright', 'other'];

export async function mount(root, ctx) {
  const { entryId } = ctx.params;
  render(root, loadingView(t('loading')));
  let data;
  try {
    [data] = await Promise.all([
      catalogue.entry(entryId, 1, PER_PAGE), loadStrings('explore'), loadStrings('more'),
      loadStylesheet('/assets/css/explore.css'), loadStylesheet('/assets/css/rich-text.css'),
    ]);
  } catch (error) {
    if (error.status === 401) return;
    if (error.status === 404) {
      await loadStrings('explore').catch(() => {});
      render(root, html`
        <section class="page page-narrow">
          <div class="panel empty-state" role="alert">
            <h1 tabindex="-1">${t('explore.gone')}</h1>
            <p class="muted">${t('explore.goneText')}</p>
            <a class="btn btn-primary" href="/app/explore">${t('explore.back')}</a>
          </div>
        </section>`);
      root.querySelector('h1').focus();
      return;
    }
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', () => mount(root, ctx));
    return;
  }

  const { entry, cards } = data;
  render(root, html`
    <section class="page">
      <nav class="breadcrumb" aria-label="Breadcrumb">
        ${backLink('/app/explore', t('explore.back'))}
        <span class="crumb-sep hide-sm" aria-hidden="true">/</span>
        <span class="hide-sm" aria-current="page">${entry.name}</span>
      </nav>
      <header class="page-header explore-entry-head" data-color="${entry.color}">
        <div class="explore-card-head">
          ${stackBadge(entry, 'badge-lg')}
          <div>
            <h1 tabindex="-1">${entry.name}</h1>
            <p class="muted">${t('explore.cards', { count: formatNumber(entry.cardCount) })} · ${authorLine(entry)}</p>
            <div class="explore-pills">${entryPills(entry)}</div>
          </div>
        </div>
        <div class="actions">
          <button type="button" class="btn btn-primary" id="copy-entry">${icon('plus')}<span>${t('explore.copy')}</span></button>
          ${entry.mine ? '' : html`<button type="button" class="btn btn-secondary" id="report-entry" aria-haspopup="dialog">${t('explore.report')}</button>`}
        </div>
      </header>
      ${entry.description ? html`<p>${entry.description}</p>` : ''}
      <p class="help">${t('explore.copyHint')}</p>
      <section class="panel" aria-labelledby="entry-cards-title">
        <h2 id="entry-cards-title" class="visually-hidden">${t('detail.cardsTitle')}</h2>
        <ol class="shared-cards" id="entry-cards"></ol>
        <button type="button" class="btn btn-secondary" id="more-cards" hidden>${t('shared.more')}</button>
      </section>
    </section>`);
  applyColors(root);
  root.querySelector('h1').focus({ preventScroll: true });
  showCardPages(root.querySelector('#entry-cards'), root.querySelector('#more-cards'), cards,
    async (page) => (await catalogue.entry(entryId, page, PER_PAGE)).cards);

  wireCopyButton(root.querySelector('#copy-entry'), () => catalogue.copy(entryId), 'explore.copied');
  root.querySelector('#report-entry')?.addEventListener('click', async () => {
    if (await reportDialog(entry)) {
      toast(t('explore.reported'));
      navigate('/app/explore', { replace: true });
    }
  });
}

const reportMarkup = (entry) => html`
    <form class="dialog-body" method="dialog" id="report-form">
      <h2 id="report-title" class="dialog-title">${t('explore.reportTitle', { name: entry.name })}</h2>
      <p class="muted">${t('explore.reportText')}</p>
      <fieldset class="report-reasons">
        <legend>${t('explore.reportReason')}</legend>
        ${REASONS.map((reason, index) => html`
          <label class="radio"><input type="radio" name="reason" value="${reason}" ${index === 0 ? 'checked' : ''}>
            <span>${t(`explore.reason.${reason}`)}</span></label>`)}
      </fieldset>
      <label for="report-note">${t('explore.reportNote')}</label>
      <textarea id="report-note" maxlength="1000" rows="3"></textarea>
      <p class="help" role="status" id="report-status"></p>
      <div class="dialog-actions">
        <button type="submit" class="btn btn-danger" data-send>${t('explore.reportSend')}</button>
        <button type="button" class="btn btn-secondary" data-cancel>${t('cancel')}</button>
      </div>
    </form>`;

/** Asks for a reason and sends the report; resolves true when it was sent. */
async function reportDialog(entry) {
  const modal = openModal(reportMarkup(entry), { labelledBy: 'report-title', className: 'report-dialog' });
  const { dialog } = modal;
  dialog.querySelector('#report-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = dialog.querySelector('[data-send]');
    const reason = dialog.querySelector('input[name="reason"]:checked').value;
    setBusy(button, true);
    try {
      await catalogue.report(entry.id, reason, dialog.querySelector('#report-note').value.trim());
      modal.close(true);
    } catch (error) {
      setBusy(button, false);
      if (error.status === 401) { modal.close(false); return; }
      dialog.querySelector('#report-status').textContent = errorText(error);
    }
  });
  dialog.querySelector('input[name="reason"]').focus();
  return (await modal.done) === true;
}

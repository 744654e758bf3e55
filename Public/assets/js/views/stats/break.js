// "Pause planen" and the backlog on the statistics page (one stack or all FSRS stacks): the days
// of a break previewed and then planned (`POST …/schedule/break`: the cards due then go before or
// after it, the days away become rest days), and part of a backlog postponed or cards of the next
// days advanced (`…/schedule/postpone`, `…/schedule/advance`). docs/fsrs.md "Breaks, postponing and
// advancing". Strings: the 'workload' bundle. The statistics screen owns the signal.

import { html, render } from '../../html.js';
import { formatDay, formatNumber, t } from '../../i18n.js';
import { request } from '../../api/client.js';
import { errorText, toast } from '../../ui.js';

const scopePath = (stack) => (stack ? `/stacks/${encodeURIComponent(stack.id)}` : '/me');

/** 'YYYY-MM-DD' of the local date `days` days from now (the date inputs' format). */
function isoDay(days) {
  const date = new Date();
  date.setDate(date.getDate() + days);
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const shortDay = (date) => formatDay(date, { weekday: 'short', day: 'numeric', month: 'short' });

/** "3 Karten kommen vorher, 12 danach." (or, previewed, "kämen"). */
function resultSentence(result) {
  const mode = result.preview ? 'preview' : 'done';
  const { advanced, postponed } = result;
  if (!advanced && !postponed) return t('break.nothing');
  if (!postponed) return t(`break.${mode}.earlier`, { count: advanced });
  if (!advanced) return t(`break.${mode}.later`, { count: postponed });
  return t(`break.${mode}.both`, { count: advanced, later: formatNumber(postponed) });
}

/** The days worth a row: those with cards before or after. */
const shownDays = (days) => days.filter((d) => d.before || d.after);

const daysTable = (days) => html`
  <div class="table-scroll" tabindex="0" role="region" aria-labelledby="break-title"><table class="advice-table break-table">
    <caption class="visually-hidden">${t('break.tableCaption')}</caption>
    <thead><tr><th scope="col">${t('break.colDay')}</th><th scope="col">${t('break.colBefore')}</th><th scope="col">${t('break.colAfter')}</th></tr></thead>
    <tbody>${days.map((d) => html`<tr class="${d.before !== d.after ? 'is-changed' : ''}"><th scope="row">${shortDay(d.date)}</th><td>${formatNumber(d.before)}</td><td>${formatNumber(d.after)}</td></tr>`)}</tbody>
  </table></div>`;

const markup = () => html`
  <section class="panel break-panel" aria-labelledby="break-title" id="break">
    <h2 id="break-title">${t('break.title')}</h2>
    <p class="muted">${t('break.lead')}</p>
    <form id="break-form" class="what-if" novalidate>
      <div class="what-if-fields">
        <label><span>${t('break.from')}</span><input type="date" name="from" required min="${isoDay(0)}" value="${isoDay(7)}"></label>
        <label><span>${t('break.to')}</span><input type="date" name="to" required min="${isoDay(0)}" value="${isoDay(13)}"></label>
      </div>
      <div class="actions"><button type="submit" class="btn btn-secondary" id="break-preview">${t('break.preview')}</button></div>
      <p class="field-error" id="break-error" role="alert"></p>
    </form>
    <div id="break-result" aria-live="polite"></div>
    <h3 id="backlog-title">${t('break.backlogTitle')}</h3>
    <p class="muted">${t('break.backlogLead')}</p>
    <form id="backlog-form" class="what-if" novalidate>
      <div class="what-if-fields">
        <label><span>${t('break.count')}</span><input type="number" name="count" min="1" max="10000" step="1" inputmode="numeric" value="20"></label>
      </div>
      <div class="actions">
        <button type="submit" class="btn btn-secondary" value="postpone">${t('break.postpone')}</button>
        <button type="submit" class="btn btn-secondary" value="advance">${t('break.advance')}</button>
      </div>
      <p class="field-error" id="backlog-error" role="alert"></p>
    </form>
    <div id="backlog-result" aria-live="polite"></div>
  </section>`;

/** The panel in `host` for `stack` (null: all FSRS stacks); `changed()` runs after a change. */
export class BreakPanel {
  constructor(host, stack, signal, changed) {
    Object.assign(this, { host, stack, signal, changed, base: scopePath(stack) });
  }

  $(selector) { return this.host.querySelector(selector); }

  start() {
    render(this.host, markup());
    this.$('#break-form').addEventListener('submit', (event) => { event.preventDefault(); this.plan(true); }, { signal: this.signal });
    this.$('#backlog-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.move(event.submitter?.value === 'advance' ? 'advance' : 'postpone');
    }, { signal: this.signal });
  }

  /** The dates of the form, or null after saying what is wrong. */
  dates() {
    const form = this.$('#break-form');
    const { from, to } = form.elements;
    const error = this.$('#break-error');
    error.textContent = '';
    if (!from.value || !to.value) { error.textContent = t('break.missing'); (from.value ? to : from).focus(); return null; }
    if (to.value < from.value) { error.textContent = t('break.reversed'); to.focus(); return null; }
    return { from: from.value, to: to.value };
  }

  async send(button, path, body) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    try {
      return await request('POST', `${this.base}${path}`, body, { signal: this.signal });
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }

  async plan(preview) {
    const dates = this.dates();
    if (!dates) return;
    const button = preview ? this.$('#break-preview') : this.$('#break-apply');
    const target = this.$('#break-result');
    try {
      const result = await this.send(button, '/schedule/break', { ...dates, preview });
      this.showPlan(result, dates);
    } catch (failure) {
      if (failure.name === 'AbortError') return;
      this.$('#break-error').textContent = errorText(failure);
      render(target, '');
    }
  }

  showPlan(result, dates) {
    const target = this.$('#break-result');
    const canApply = result.preview && (result.advanced || result.postponed);
    render(target, html`
      <p class="advice-sentence"><strong>${resultSentence(result)}</strong></p>
      ${result.preview ? '' : html`<p class="muted small">${t('break.restDays')}</p>`}
      ${shownDays(result.days).length ? daysTable(shownDays(result.days)) : ''}
      ${canApply ? html`<div class="actions"><button type="button" class="btn btn-primary" id="break-apply">${t('break.apply')}</button></div>` : ''}`);
    this.$('#break-apply')?.addEventListener('click', () => this.plan(false), { signal: this.signal });
    if (!result.preview) {
      toast(t('break.planned', { from: shortDay(dates.from), to: shortDay(dates.to) }));
      this.changed();
    }
  }

  async move(kind) {
    const form = this.$('#backlog-form');
    const error = this.$('#backlog-error');
    const count = Number(form.elements.count.value);
    error.textContent = '';
    if (!Number.isInteger(count) || count < 1 || count > 10000) {
      error.textContent = t('break.countInvalid');
      form.elements.count.focus();
      return;
    }
    try {
      const result = await this.send(form.querySelector(`button[value=${kind}]`), `/schedule/${kind}`, { count });
      render(this.$('#backlog-result'), html`<p class="advice-sentence"><strong>${resultSentence(result)}</strong></p>`);
      if (result.advanced || result.postponed) this.changed();
    } catch (failure) {
      if (failure.name === 'AbortError') return;
      error.textContent = errorText(failure);
    }
  }
}

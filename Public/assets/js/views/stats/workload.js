// The workload on the statistics page (one stack or all stacks): the next days as the FSRS simulator
// expects them from the learner's memory, tempo and settings, "what if" inputs (new cards per day,
// desired retention, period), and the retention advice: a year at each retention from 70 to 97 %,
// with the one that fits the learner's minutes per day (docs/fsrs.md "Workload"). The statistics
// screen owns the request signal; the panels add no listener that outlives the page.

import { html, render } from '../../html.js';
import { formatDay, formatNumber, formatPercent as percent, loadStrings, t } from '../../i18n.js';
import { api, hasCode, request } from '../../api/client.js';
import { barChart, labelIndices } from '../../charts.js';
import { errorText, toast } from '../../ui.js';
import { showMemory } from './memory.js';
import { BreakPanel } from './break.js';

const WHAT_IF_RETENTIONS = [0.7, 0.75, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97];
const PERIODS = [30, 90, 365];

const scopePath = (stackId) => (stackId ? `/stacks/${encodeURIComponent(stackId)}` : '/me');

const number = (n, digits = 0) => formatNumber(n, digits);

/** A learner day 'YYYY-MM-DD' as a short date ("12. Dez."). */
const shortDay = (date) => formatDay(date, { day: 'numeric', month: 'short' });

/** Minutes as a learner reads them: one decimal under 10 ("0,4"), whole minutes above. */
const minutesText = (minutes) => number(minutes, minutes < 10 ? 1 : 0);

/** The sentence under the advice table, from the server's reason. */
function adviceSentence(advice) {
  const chosen = advice.options.find((o) => o.desiredRetention === advice.recommended);
  const values = {
    percent: percent(advice.recommended),
    minutes: minutesText(chosen?.minutesPerDay ?? 0),
    budget: advice.minutesBudget ?? 0,
  };
  return t(`workload.advice.${advice.reason}`, values);
}

/** The panels' markup; their content is filled in as the answers come. */
const panels = (stack) => html`
  <section class="panel chart-panel workload-panel" aria-labelledby="workload-title" id="workload">
    <div class="chart-head">
      <div>
        <h2 id="workload-title">${t('workload.title')}</h2>
        <p class="muted">${t('workload.lead')}</p>
      </div>
    </div>
    <p class="chart-figure" id="workload-summary" aria-live="polite">${t('workload.loading')}</p>
    <stats-chart class="chart" data-chart="workload"></stats-chart>
    <div class="visually-hidden" id="workload-table"></div>
    <form class="what-if" id="what-if" novalidate hidden>
      <fieldset>
        <legend>${t('workload.whatIf')}</legend>
        <div class="what-if-fields">
          <label><span>${t('workload.newPerDay')}</span>
            <input type="number" name="newCardsPerDay" min="0" max="1000" step="1" inputmode="numeric" placeholder="${stack ? stack.newCardsPerDay : ''}"></label>
          <label><span>${t('workload.retention')}</span>
            <select name="desiredRetention">
              <option value="">${t('workload.asSet')}</option>
              ${WHAT_IF_RETENTIONS.map((r) => html`<option value="${r}">${percent(r)}</option>`)}
            </select></label>
          <label><span>${t('workload.period')}</span>
            <select name="days">${PERIODS.map((d) => html`<option value="${d}">${t('workload.days', { count: d })}</option>`)}</select></label>
        </div>
        <div class="actions">
          <button type="submit" class="btn btn-secondary">${t('workload.compute')}</button>
          <button type="reset" class="btn btn-ghost">${t('workload.reset')}</button>
        </div>
      </fieldset>
      <p class="field-error" id="what-if-error" role="alert"></p>
    </form>
  </section>
  <section class="panel workload-advice" aria-labelledby="advice-title" id="retention-advice" hidden>
    <h2 id="advice-title">${t('workload.adviceTitle')}</h2>
    <p class="muted">${t('workload.adviceLead')}</p>
    <button type="button" class="btn btn-secondary" id="advice-run">${t('workload.adviceRun')}</button>
    <div id="advice-result" aria-live="polite"></div>
  </section>`;

/** The workload and advice panels in `host`, for `stack` (null: all stacks). */
export class WorkloadPanels {
  constructor(host, stack, signal) {
    this.host = host;
    this.stack = stack;
    this.signal = signal;
    this.base = scopePath(stack?.id);
  }

  $(selector) { return this.host.querySelector(selector); }

  async start() {
    await loadStrings('workload');
    if (this.signal.aborted) return;
    render(this.host, html`${panels(this.stack)}<div id="break-host"></div><div id="memory-host"></div>`);
    // Breaks and the backlog move FSRS cards only: a ladder stack has no such panel.
    if (this.stack?.scheduler !== 'ladder') new BreakPanel(this.$('#break-host'), this.stack, this.signal, () => this.load()).start();
    showMemory(this.$('#memory-host'), this.stack, this.signal);
    const form = this.$('#what-if');
    form.addEventListener('submit', (event) => { event.preventDefault(); this.simulate(); }, { signal: this.signal });
    form.addEventListener('reset', () => setTimeout(() => this.load(), 0), { signal: this.signal });
    this.$('#advice-run').addEventListener('click', () => this.advise(), { signal: this.signal });
    await this.load();
  }

  /** The forecast with the stack's settings. */
  async load() {
    await this.fetch(() => request('GET', `${this.base}/workload?days=30`, undefined, { signal: this.signal }));
  }

  /** The forecast with the form's "what if" values. */
  async simulate() {
    const form = this.$('#what-if');
    const data = new FormData(form);
    const changes = { days: Number(data.get('days')) };
    const fresh = data.get('newCardsPerDay');
    if (fresh !== '') changes.newCardsPerDay = Number(fresh);
    if (data.get('desiredRetention')) changes.desiredRetention = Number(data.get('desiredRetention'));
    if (changes.newCardsPerDay !== undefined && !(Number.isInteger(changes.newCardsPerDay) && changes.newCardsPerDay >= 0 && changes.newCardsPerDay <= 1000)) {
      this.$('#what-if-error').textContent = t('workload.newPerDayInvalid');
      form.elements.newCardsPerDay.focus();
      return;
    }
    await this.fetch(() => request('POST', `${this.base}/workload/simulate`, changes, { signal: this.signal }), form);
  }

  async fetch(load, form = null) {
    const summary = this.$('#workload-summary');
    const error = this.$('#what-if-error');
    error.textContent = '';
    summary.textContent = t('workload.loading');
    form?.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    try {
      this.show(await load());
    } catch (failure) {
      if (failure.name === 'AbortError') return;
      this.$('[data-chart="workload"]').hidden = true;
      if (hasCode(failure, 'workload_needs_fsrs')) {
        summary.textContent = t('workload.needsFsrs');
        this.$('#what-if').hidden = true;
        return;
      }
      summary.textContent = '';
      error.textContent = errorText(failure);
      this.$('#what-if').hidden = false;
    } finally {
      form?.querySelectorAll('button').forEach((b) => { b.disabled = false; });
    }
  }

  show(workload) {
    const { days } = workload;
    const summary = this.$('#workload-summary');
    this.$('#what-if').hidden = false;
    this.$('[data-chart="workload"]').hidden = false;
    this.$('#retention-advice').hidden = workload.cards === 0;
    if (workload.cards === 0) {
      summary.textContent = t('workload.empty');
      render(this.$('#workload-table'), '');
      this.$('[data-chart="workload"]').plot((host) => render(host, ''));
      return;
    }
    const cards = Math.round(workload.averageReviews);
    const text = t('workload.summary', {
      count: days.length, minutes: minutesText(workload.averageMinutes), cards: t('workload.cards', { count: cards }),
    });
    const budget = workload.minutesBudget;
    summary.textContent = budget && workload.averageMinutes > budget
      ? `${text} ${t('workload.overBudget', { budget })}` : text;
    const title = (d) => t('workload.dayTitle', {
      date: shortDay(d.date), cards: number(d.reviews + d.newCards), minutes: number(d.minutes),
    });
    this.$('[data-chart="workload"]').plot((host, width) => {
      const labels = labelIndices(days.length, width - 40, 70)
        .map((index) => ({ index, text: index === 0 ? t('stats.todayLabel') : shortDay(days[index].date) }));
      render(host, barChart(days.map((d) => ({ value: d.minutes, title: title(d) })), {
        width, height: 180, labels, format: (n) => number(n), label: summary.textContent,
      }));
    });
    render(this.$('#workload-table'), html`<table>
      <caption>${t('workload.title')}</caption>
      <thead><tr><th scope="col">${t('stats.colDate')}</th><th scope="col">${t('workload.colReviews')}</th><th scope="col">${t('workload.colNew')}</th><th scope="col">${t('workload.colMinutes')}</th></tr></thead>
      <tbody>${days.map((d) => html`<tr><th scope="row">${shortDay(d.date)}</th><td>${number(d.reviews)}</td><td>${number(d.newCards)}</td><td>${number(d.minutes)}</td></tr>`)}</tbody>
    </table>`);
  }

  /** A year at each retention; the recommendation and, for a stack, a button to take it. */
  async advise() {
    const button = this.$('#advice-run');
    const result = this.$('#advice-result');
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
    render(result, html`<p class="muted">${t('workload.adviceLoading')}</p>`);
    try {
      const advice = await request('GET', `${this.base}/retention-advice`, undefined, { signal: this.signal });
      this.showAdvice(advice);
    } catch (failure) {
      if (failure.name === 'AbortError') return;
      render(result, html`<p class="field-error" role="alert">${errorText(failure)}</p>`);
    } finally {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }

  showAdvice(advice) {
    const result = this.$('#advice-result');
    const takeable = this.stack && advice.reason !== 'nothing_to_study' && advice.recommended !== advice.current;
    render(result, html`
      <p class="advice-sentence"><strong>${adviceSentence(advice)}</strong></p>
      ${advice.reason === 'nothing_to_study' ? '' : html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="advice-title"><table class="advice-table">
        <caption class="visually-hidden">${t('workload.adviceTitle')}</caption>
        <thead><tr><th scope="col">${t('workload.retention')}</th><th scope="col">${t('workload.colMinutesPerDay')}</th><th scope="col">${t('workload.colCardsPerDay')}</th><th scope="col">${t('workload.colRemembered')}</th></tr></thead>
        <tbody>${advice.options.map((o) => html`<tr class="${o.desiredRetention === advice.recommended ? 'is-recommended' : ''}">
          <th scope="row">${percent(o.desiredRetention)}${o.desiredRetention === advice.recommended ? html` <span class="tag-recommended">${t('workload.recommended')}</span>` : ''}${o.desiredRetention === advice.current ? html` <span class="muted small">${t('workload.current')}</span>` : ''}</th>
          <td>${number(o.minutesPerDay, 1)}</td><td>${number(o.reviewsPerDay)}</td><td>${number(o.remembered)}</td></tr>`)}</tbody>
      </table></div>`}
      ${takeable ? html`<button type="button" class="btn btn-primary" id="advice-take">${t('workload.take', { percent: percent(advice.recommended) })}</button>` : ''}`);
    this.$('#advice-take')?.addEventListener('click', () => this.take(advice.recommended), { signal: this.signal });
  }

  async take(retention) {
    const button = this.$('#advice-take');
    button.disabled = true;
    try {
      this.stack = await api.updateStack(this.stack.id, { desiredRetention: retention });
      toast(t('workload.taken', { percent: percent(retention) }));
      button.remove();
      await this.load();
    } catch (failure) {
      button.disabled = false;
      toast(errorText(failure), 'error');
    }
  }
}

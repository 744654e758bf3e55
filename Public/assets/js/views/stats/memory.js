// The figures FSRS users read, on the statistics page (GET …/stats/memory): the knowledge FSRS
// estimates, true retention of young and mature cards per period, cards by difficulty, stability and
// probability of recall, and the buttons pressed per phase. Strings: the 'workload' bundle.

import { html, render } from '../../html.js';
import { formatNumber, formatPercent as percent, t } from '../../i18n.js';
import { request } from '../../api/client.js';
import { barChart } from '../../charts.js';
import { errorText } from '../../ui.js';

const PERIODS = ['today', 'yesterday', 'week', 'month', 'year'];
const PHASES = ['learning', 'young', 'mature'];
const BUTTONS = ['again', 'hard', 'good', 'easy'];

const number = (n, digits = 0) => formatNumber(n, digits);

/** "93 % (41)" or a dash when nothing was reviewed. */
const share = ({ reviews, recalled }) => (reviews > 0
  ? html`${percent(recalled / reviews)} <span class="muted small">(${number(reviews)})</span>`
  : html`<span aria-hidden="true">–</span><span class="visually-hidden">${t('stats.noValue')}</span>`);

const sum = (a, b) => ({ reviews: a.reviews + b.reviews, recalled: a.recalled + b.recalled });

/** The labels of the distributions' bins. */
function binLabels(memory) {
  const days = (n) => t('memory.days', { count: n });
  const bounds = memory.stabilityBounds;
  return {
    difficulty: memory.difficulty.map((_, i) => (i < 9 ? `${i + 1}–${i + 1}.9` : '10')),
    stability: memory.stability.map((_, i) => (i === 0 ? `< ${days(bounds[0])}`
      : i < bounds.length ? `${number(bounds[i - 1])}–${days(bounds[i])}` : `≥ ${days(bounds[bounds.length - 1])}`)),
    retrievability: memory.retrievability.map((_, i) => `${i * 10}–${i === 9 ? 100 : i * 10 + 9} %`),
  };
}

const distribution = (key, counts, labels) => html`
  <section class="memory-distribution" aria-labelledby="memory-${key}">
    <h3 id="memory-${key}">${t(`memory.${key}`)}</h3>
    <stats-chart class="chart" data-chart="memory-${key}"></stats-chart>
    <div class="visually-hidden"><table><caption>${t(`memory.${key}`)}</caption>
      <tbody>${counts.map((n, i) => html`<tr><th scope="row">${labels[i]}</th><td>${number(n)}</td></tr>`)}</tbody>
    </table></div>
  </section>`;

/** "14 Uhr: 12 Wiederholungen, 92 % gewusst". */
const hourTitle = (hour, { reviews, recalled }) => t('memory.hourTitle', {
  hour, count: reviews, recalled: reviews ? percent(recalled / reviews) : '–',
});

const hoursSection = (hours) => html`
  <section class="memory-hours" aria-labelledby="memory-hours-title">
    <h3 id="memory-hours-title">${t('memory.hours')}</h3>
    <stats-chart class="chart" data-chart="memory-hours"></stats-chart>
    <div class="visually-hidden"><table><caption>${t('memory.hours')}</caption>
      <tbody>${hours.map((h, i) => html`<tr><th scope="row">${t('memory.hour', { hour: i })}</th><td>${hourTitle(i, h)}</td></tr>`)}</tbody>
    </table></div>
  </section>`;

function panel(memory) {
  if (memory.cards === 0) return html`<p class="muted">${t('memory.empty')}</p>`;
  const rows = Object.fromEntries(memory.trueRetention.map((row) => [row.period, row]));
  const buttons = Object.fromEntries(memory.answerButtons.map((row) => [row.phase, row.counts]));
  const labels = binLabels(memory);
  return html`
    <p class="chart-figure">${t('memory.knowledge', { known: number(memory.estimatedKnowledge), count: memory.cards })}</p>
    <p class="muted">${t('memory.dailyLoad', { load: number(memory.dailyLoad, memory.dailyLoad < 10 ? 1 : 0) })}</p>
    <h3 id="memory-retention-title">${t('memory.trueRetention')}</h3>
    <div class="table-scroll" tabindex="0" role="region" aria-labelledby="memory-retention-title"><table class="advice-table memory-table">
      <thead><tr><th scope="col">${t('memory.period')}</th><th scope="col">${t('memory.young')}</th><th scope="col">${t('memory.mature')}</th><th scope="col">${t('memory.total')}</th></tr></thead>
      <tbody>${PERIODS.map((period) => html`<tr><th scope="row">${t(`memory.period.${period}`)}</th>
        <td>${share(rows[period].young)}</td><td>${share(rows[period].mature)}</td><td>${share(sum(rows[period].young, rows[period].mature))}</td></tr>`)}</tbody>
    </table></div>
    <p class="muted small">${t('memory.trueRetentionHelp')}</p>
    <div class="memory-grid">
      ${distribution('difficulty', memory.difficulty, labels.difficulty)}
      ${distribution('stability', memory.stability, labels.stability)}
      ${distribution('retrievability', memory.retrievability, labels.retrievability)}
    </div>
    ${hoursSection(memory.hours)}
    <h3 id="memory-buttons-title">${t('memory.buttons')}</h3>
    <div class="table-scroll" tabindex="0" role="region" aria-labelledby="memory-buttons-title"><table class="advice-table memory-table">
      <thead><tr><th scope="col">${t('memory.phase')}</th>${BUTTONS.map((b) => html`<th scope="col">${t(`memory.button.${b}`)}</th>`)}</tr></thead>
      <tbody>${PHASES.map((phase) => {
        const counts = buttons[phase] ?? [0, 0, 0, 0];
        const total = counts.reduce((a, b) => a + b, 0);
        return html`<tr><th scope="row">${t(`memory.phase.${phase}`)}</th>${counts.map((n) => html`<td>${number(n)}${total ? html` <span class="muted small">${percent(n / total)}</span>` : ''}</td>`)}</tr>`;
      })}</tbody>
    </table></div>`;
}

/** Loads and shows the panel in `host` for `stack` (null: all stacks). */
export async function showMemory(host, stack, signal) {
  render(host, html`
    <section class="panel chart-panel memory-panel" aria-labelledby="memory-title" id="memory">
      <h2 id="memory-title">${t('memory.title')}</h2>
      <p class="muted">${t('memory.lead')}</p>
      <div id="memory-body" aria-live="polite"><p class="muted">${t('workload.loading')}</p></div>
    </section>`);
  const body = host.querySelector('#memory-body');
  let memory;
  try {
    memory = await request('GET', stack ? `/stacks/${encodeURIComponent(stack.id)}/stats/memory` : '/me/stats/memory', undefined, { signal });
  } catch (failure) {
    if (failure.name === 'AbortError') return;
    render(body, html`<p class="field-error" role="alert">${errorText(failure)}</p>`);
    return;
  }
  render(body, panel(memory));
  if (memory.cards === 0) return;
  const labels = binLabels(memory);
  body.querySelector('[data-chart="memory-hours"]').plot((chart, width) => render(chart, barChart(
    memory.hours.map((h, i) => ({ value: h.reviews, title: hourTitle(i, h) })),
    { width, height: 140, format: (n) => number(n), label: t('memory.hours'),
      labels: [0, 6, 12, 18].map((index) => ({ index, text: t('memory.hour', { hour: index }) })) })));
  for (const key of ['difficulty', 'stability', 'retrievability']) {
    const counts = memory[key];
    body.querySelector(`[data-chart="memory-${key}"]`).plot((chart, width) => render(chart, barChart(
      counts.map((n, i) => ({ value: n, title: `${labels[key][i]}: ${number(n)}` })),
      {
        width, height: 140, format: (n) => number(n), label: t(`memory.${key}`),
        labels: counts.length <= 10 ? counts.map((_, i) => ({ index: i, text: key === 'difficulty' ? String(i + 1) : (key === 'retrievability' ? `${i * 10}` : labels[key][i].split('–')[0]) })) : [],
      })));
  }
}

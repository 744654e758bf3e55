// Statistics of all the user's stacks (/app/stats) or of one stack (/app/stacks/{id}/stats):
// summary figures, a year of activity as a heatmap, reviews per day, true retention per week,
// the due cards of the next 30 days and the cards by state. One request (`GET …/stats`, see
// docs/api.md "Statistics"); the charts (charts.js) are sized to their containers and drawn
// again when a container changes width. The statistics of all stacks link to the leaderboard (when
// game elements are on): it belongs to the learner's progress, not to the main navigation. Below the
// charts, the workload forecast and the retention advice (stats/workload.js).

import { html, render } from '../html.js';
import { formatDay, loadStrings, locale, t } from '../i18n.js';
import { api, request } from '../api/client.js';
import {
  errorText, errorView, icon, loadStylesheet, loadingView, stackBreadcrumb, stacksBreadcrumb,
} from '../ui.js';
import { gameElements } from '../account.js';
import { barChart, heatLegend, heatmap, labelIndices, lineChart, stackedBar } from '../charts.js';
import '../../components/stats-chart/stats-chart.js';
import { WorkloadPanels } from './stats/workload.js';

const RANGES = [30, 90, 365];
const STATES = ['new', 'learning', 'review', 'relearning'];
let range = 30; // the reviews chart's period, kept while the app runs

/** `GET /api/v1/stacks/{id}/stats` or `GET /api/v1/me/stats`. */
const fetchStats = (stackId, signal) =>
  request('GET', stackId ? `/stacks/${encodeURIComponent(stackId)}/stats` : '/me/stats', undefined, { signal });

// --- formatting -------------------------------------------------------------------------------

const formats = new Map();

/** An Intl formatter for the current locale, made once per locale and options. */
function formatter(kind, options) {
  const key = `${kind}|${locale()}|${JSON.stringify(options)}`;
  if (!formats.has(key)) {
    formats.set(key, kind === 'date' ? new Intl.DateTimeFormat(locale(), { ...options, timeZone: 'UTC' })
      : new Intl.NumberFormat(locale(), options));
  }
  return formats.get(key);
}


/** A number in the user's locale (one Intl.NumberFormat for the whole page). */
const formatNumber = (n) => formatter('number', {}).format(n);
const shortDay = (date) => formatDay(date, { day: 'numeric', month: 'short' });
const percent = (share) => formatter('number', { style: 'percent', maximumFractionDigits: 0 }).format(share);
const decimal = (n) => formatter('number', { maximumFractionDigits: 1 }).format(n);

/** Weekday names Monday … Sunday, short ("Mo", "Mon"). */
const weekdayNames = () => [5, 6, 7, 8, 9, 10, 11].map((d) =>
  formatter('date', { weekday: 'short' }).format(Date.UTC(2024, 1, d)));

// --- figures ----------------------------------------------------------------------------------

/** Everything the page shows that is computed from the answer, once. */
export function figures(stats) {
  const days = stats.reviewsPerDay;
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const weeks = stats.retentionPerWeek.filter((w) => w.reviews > 0);
  const longTerm = weeks.reduce((sum, w) => sum + w.reviews, 0);
  const recalled = weeks.reduce((sum, w) => sum + w.recalled, 0);
  const states = stats.cardsByState;
  const studied = states.learning + states.review + states.relearning;
  return {
    today: days[days.length - 1]?.count ?? 0,
    total,
    daysLearned: days.filter((d) => d.count > 0).length,
    retention: longTerm > 0 ? recalled / longTerm : null,
    weeksWithReviews: weeks.length,
    cards: studied + states.new,
    forecastTotal: stats.forecast.reduce((sum, d) => sum + d.count, 0),
    empty: total === 0 && studied === 0,
  };
}

// --- the page ---------------------------------------------------------------------------------

export async function mount(root, { params }) {
  const screen = new StatsScreen(root, params.stackId || null);
  await screen.load();
  return () => screen.destroy();
}

/** The page frame: breadcrumb and heading, then `body`. */
const pageFrame = (stack, body, actions = '') => html`
  <section class="page stats-page">
    ${stack ? stackBreadcrumb(stack, `/app/stacks/${stack.id}`, t('stats.title')) : stacksBreadcrumb(t('stats.title'))}
    <header class="page-header">
      <div>
        <h1>${t('stats.title')}</h1>
        <p class="muted">${stack ? t('stats.scopeStack', { name: stack.name }) : t('stats.scopeAll')}</p>
      </div>
      ${actions}
    </header>
    ${body}
  </section>`;

/** The page's links on: all stacks' statistics, the leaderboard, "Jetzt lernen". */
const pageActions = (stack, f) => html`<div class="actions">
  ${stack ? html`<a class="btn btn-secondary" href="/app/stats">${icon('chart')}<span>${t('stats.allStacks')}</span></a>` : ''}
  ${!stack && gameElements() ? html`<a class="btn btn-secondary" href="/app/leaderboard" id="to-leaderboard">${icon('trophy')}<span>${t('nav.leaderboard')}</span></a>` : ''}
  ${stack && !f.empty ? html`<a class="btn btn-primary" href="/app/stacks/${stack.id}/study">${icon('play')}<span>${t('detail.learn')}</span></a>` : ''}
</div>`;

/** One visit of the statistics: owns the request under way; the charts (<stats-chart>) follow
 * their own width and stop when they leave the page. */
class StatsScreen {
  constructor(root, stackId) {
    this.root = root;
    this.stackId = stackId;
    this.controller = new AbortController();
  }

  destroy() {
    this.controller.abort();
  }

  /** Loads and shows the statistics; `focus`: the heading takes focus afterwards (a retry). */
  async load(focus = false) {
    const { root, stackId } = this;
    const { signal } = this.controller;
    render(root, pageFrame(null, loadingView(t('stats.loading'))));
    if (stackId) root.querySelector('.breadcrumb').hidden = true; // its stack name is not known yet
    try {
      // The page's strings and styles come with it (i18n/stats.*.js, css/stats.css): the
      // dashboard's first load stays within its budget.
      const [stats, stack, stacks] = await Promise.all([
        fetchStats(stackId, signal),
        stackId ? api.stack(stackId, { signal }) : null,
        // The links to each stack's statistics; the page works without them.
        stackId ? null : api.stacks({ signal }).catch((error) => {
          if (error.name === 'AbortError') throw error;
          return [];
        }),
        loadStrings('stats'),
        loadStylesheet('/assets/css/stats.css'),
      ]);
      this.show(stats, stack, stacks);
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      render(root, pageFrame(null, errorView(stackId ? errorText(error) : t('stats.error'))));
      root.querySelector('.breadcrumb').hidden = Boolean(stackId);
      root.querySelector('[data-retry]').addEventListener('click', () => this.load(true));
    }
    if (focus) this.focusHeading();
  }

  focusHeading() {
    const heading = this.root.querySelector('h1');
    heading.setAttribute('tabindex', '-1');
    heading.focus({ preventScroll: true });
  }

  /** Renders the answer: figures, the chart panels, then the charts at their containers' width. */
  show(stats, stack, stacks) {
    const f = figures(stats);
    const body = f.empty ? emptyState(stack ? `/app/stacks/${stack.id}` : null) : html`
      ${summary(f)}
      ${activityPanel(stats, f)}
      ${reviewsPanel()}
      ${retentionPanel(stats, f, stack)}
      <div class="stats-grid">
        ${forecastPanel(stats, f)}
        ${statesPanel(stats, f)}
      </div>
      <div id="workload-host"></div>`;
    render(this.root, pageFrame(stack, html`${stacks?.length ? stackLinks(stacks) : ''}${body}`, pageActions(stack, f)));
    if (f.empty) return;
    this.plotCharts(stats, stack);
    // The workload and the retention advice come with their own requests, after the charts.
    new WorkloadPanels(this.root.querySelector('#workload-host'), stack, this.controller.signal).start()
      .catch((error) => { if (error.name !== 'AbortError') throw error; });
  }

  plotCharts(stats, stack) {
    const { root } = this;
    const draw = {
      heatmap: (host, width) => drawHeatmap(host, width, stats),
      reviews: (host, width) => drawReviews(host, width, stats),
      retention: (host, width) => drawRetention(host, width, stats, stack),
      forecast: (host, width) => drawForecast(host, width, stats),
    };
    // All widths first, then all drawing: one layout instead of one per chart.
    const charts = [...root.querySelectorAll('stats-chart')].map((chart) => [chart, chart.clientWidth]);
    for (const [chart, width] of charts) chart.plot(draw[chart.dataset.chart], width);
    const scroller = root.querySelector('.heatmap-scroll');
    scroller.scrollLeft = scroller.scrollWidth; // today is at the right end
    root.querySelector('.range-switch').addEventListener('change', (event) => {
      range = Number(event.target.value);
      root.querySelector('[data-chart="reviews"]').redraw();
    });
  }
}

// --- panels (markup) --------------------------------------------------------------------------

const emptyState = (base) => html`
  <div class="state state-empty stats-empty">
    <span class="empty-icon" aria-hidden="true">${icon('chart')}</span>
    <p class="empty-title">${t('stats.empty')}</p>
    ${base
      ? html`<a class="btn btn-primary" href="${base}/study">${icon('play')}<span>${t('detail.learn')}</span></a>`
      : html`<a class="btn btn-primary" href="/app/stacks">${icon('cards')}<span>${t('stats.toStacks')}</span></a>`}
  </div>`;

/** Links to every stack's own statistics (on the overall page). */
const stackLinks = (stacks) => html`
  <nav class="stats-stacks" aria-label="${t('stats.byStack')}">
    <span class="muted small">${t('stats.byStack')}:</span>
    <ul role="list">
      ${stacks.map((s) => html`<li><a class="stats-stack-link" href="/app/stacks/${s.id}/stats" data-color="${s.color}"><span class="dot" aria-hidden="true"></span>${s.name}</a></li>`)}
    </ul>
  </nav>`;

const figure = (label, value) => html`<div class="stat"><dt>${label}</dt><dd>${value}</dd></div>`;

const summary = (f) => html`
  <dl class="stats-summary">
    ${figure(t('stats.today'), formatNumber(f.today))}
    ${figure(t('stats.year'), formatNumber(f.total))}
    ${figure(t('stats.daysLearned'), formatNumber(f.daysLearned))}
    ${figure(t('stats.avgRetention'), f.retention === null ? html`<span aria-hidden="true">–</span><span class="visually-hidden">${t('stats.noValue')}</span>` : percent(f.retention))}
  </dl>`;

const dayStart = (stats) => formatter('date', { hour: 'numeric', minute: '2-digit' })
  .format(Date.UTC(2024, 0, 1, stats.dayStartHour));

/** Months of the year with their reviews and learning days: the heatmap's text alternative. */
function monthRows(days) {
  const rows = [];
  for (const day of days) {
    const key = day.date.slice(0, 7);
    let row = rows[rows.length - 1];
    if (!row || row.key !== key) rows.push(row = { key, date: day.date, reviews: 0, days: 0 });
    row.reviews += day.count;
    if (day.count > 0) row.days += 1;
  }
  return rows;
}

function activityPanel(stats, f) {
  return html`
    <section class="panel chart-panel" aria-labelledby="stats-activity">
      <div class="chart-head">
        <div>
          <h2 id="stats-activity">${t('stats.activity')}</h2>
          <p class="muted">${t('stats.activityLead', { time: dayStart(stats), zone: stats.timeZone })}</p>
        </div>
      </div>
      <stats-chart class="heatmap-scroll" data-chart="heatmap" tabindex="0" role="region" aria-label="${t('stats.activityCalendar')}"></stats-chart>
      ${heatLegend(t('stats.less'), t('stats.more'))}
      <div class="visually-hidden"><table>
        <caption>${t('stats.monthTable')}</caption>
        <thead><tr><th scope="col">${t('stats.colMonth')}</th><th scope="col">${t('stats.colReviews')}</th><th scope="col">${t('stats.colDays')}</th></tr></thead>
        <tbody>
          ${monthRows(stats.reviewsPerDay).map((row) => html`<tr><th scope="row">${formatDay(row.date, { month: 'long', year: 'numeric' })}</th><td>${formatNumber(row.reviews)}</td><td>${formatNumber(row.days)}</td></tr>`)}
        </tbody>
      </table></div>
      <p class="visually-hidden">${t('stats.activityLabel', { count: f.total, days: f.daysLearned })}</p>
    </section>`;
}

const reviewsPanel = () => html`
  <section class="panel chart-panel" aria-labelledby="stats-reviews">
    <div class="chart-head">
      <h2 id="stats-reviews">${t('stats.reviews')}</h2>
      <fieldset class="range-switch">
        <legend class="visually-hidden">${t('stats.range')}</legend>
        ${RANGES.map((days) => html`<label><input type="radio" name="stats-range" value="${days}" ${days === range ? 'checked' : ''}><span>${t('stats.rangeDays', { count: days })}</span></label>`)}
      </fieldset>
    </div>
    <p class="muted" id="stats-reviews-summary" aria-live="polite"></p>
    <stats-chart class="chart" data-chart="reviews"></stats-chart>
  </section>`;

function retentionPanel(stats, f) {
  const weeks = stats.retentionPerWeek.filter((w) => w.reviews > 0);
  return html`
    <section class="panel chart-panel" aria-labelledby="stats-retention">
      <div class="chart-head">
        <div>
          <h2 id="stats-retention">${t('stats.retention')}</h2>
          <p class="muted">${t('stats.retentionLead')}</p>
        </div>
      </div>
      <p class="chart-figure">${f.retention === null ? t('stats.retentionNone')
        : t('stats.retentionSummary', { percent: percent(f.retention), count: f.weeksWithReviews })}</p>
      <stats-chart class="chart" data-chart="retention"></stats-chart>
      ${weeks.length ? html`<div class="visually-hidden"><table>
        <caption>${t('stats.retention')}</caption>
        <thead><tr><th scope="col">${t('stats.colWeek')}</th><th scope="col">${t('stats.colRetention')}</th><th scope="col">${t('stats.colRecalled')}</th></tr></thead>
        <tbody>
          ${weeks.map((w) => html`<tr><th scope="row">${formatDay(w.weekStart)}</th><td>${percent(w.retention)}</td><td>${t('stats.ofReviews', { recalled: formatNumber(w.recalled), reviews: formatNumber(w.reviews) })}</td></tr>`)}
        </tbody>
      </table></div>` : ''}
    </section>`;
}

function forecastPanel(stats, f) {
  return html`
    <section class="panel chart-panel" aria-labelledby="stats-forecast">
      <div class="chart-head">
        <h2 id="stats-forecast">${t('stats.forecast')}</h2>
      </div>
      <p class="muted">${t('stats.forecastSummary', { count: f.forecastTotal, today: stats.forecast[0]?.count ?? 0 })}</p>
      <stats-chart class="chart" data-chart="forecast"></stats-chart>
      <div class="visually-hidden"><table>
        <caption>${t('stats.forecast')}</caption>
        <thead><tr><th scope="col">${t('stats.colDate')}</th><th scope="col">${t('stats.colDue')}</th></tr></thead>
        <tbody>
          ${stats.forecast.map((d, i) => html`<tr><th scope="row">${i === 0 ? t('stats.todayLabel') : formatDay(d.date)}</th><td>${formatNumber(d.count)}</td></tr>`)}
        </tbody>
      </table></div>
    </section>`;
}

function statesPanel(stats, f) {
  const states = stats.cardsByState;
  const parts = STATES.map((key) => ({
    key,
    value: states[key],
    title: `${t(`stats.state.${key}`)}: ${formatNumber(states[key])}`,
  }));
  const share = (n) => (f.cards > 0 ? percent(n / f.cards) : percent(0));
  return html`
    <section class="panel chart-panel" aria-labelledby="stats-states">
      <div class="chart-head">
        <h2 id="stats-states">${t('stats.states')}</h2>
      </div>
      <p class="muted">${t('stats.cards', { count: f.cards })}</p>
      ${stackedBar(parts, { label: parts.map((p) => p.title).join(', ') })}
      <ul class="state-legend" role="list">
        ${STATES.map((key) => html`
          <li data-state="${key}">
            <span class="state-swatch seg-${key}" aria-hidden="true"></span>
            <span class="state-name">${t(`stats.state.${key}`)}<span class="muted small">${t(`stats.stateHelp.${key}`)}</span></span>
            <span class="state-count">${formatNumber(states[key])}</span>
            <span class="state-share muted small">${share(states[key])}</span>
          </li>`)}
      </ul>
    </section>`;
}

// --- charts (drawn at the container's width) --------------------------------------------------

const MARK = '\u0001';
const templates = new Map();

/**
 * `t(key, {count, date})` for the many cells and bars: the text is made once per count with the
 * date left open (t() makes an Intl.PluralRules per call, which for 730 titles cost ~50 ms).
 */
function datedCount(key, count, date) {
  const id = `${locale()}|${key}|${count}`;
  if (!templates.has(id)) templates.set(id, t(key, { count, date: MARK }));
  return templates.get(id).replace(MARK, date);
}

const dayTitle = (day) => (day.count > 0
  ? datedCount('stats.dayTitle', day.count, formatDay(day.date))
  : t('stats.dayNone', { date: formatDay(day.date) }));

function drawHeatmap(host, width, stats) {
  const days = stats.reviewsPerDay;
  const columns = 54;
  // Cells grow with the panel (13–20 px pitch); below that the heatmap scrolls on its own.
  const pitch = Math.max(13, Math.min(20, Math.floor((width - 32) / columns)));
  const f = figures(stats);
  render(host, heatmap(days, {
    pitch,
    title: dayTitle,
    monthLabel: (date) => formatDay(date, { month: 'short' }),
    weekdayLabels: weekdayNames(),
    label: t('stats.activityLabel', { count: f.total, days: f.daysLearned }),
    today: days[days.length - 1]?.date,
  }));
}

function drawReviews(host, width, stats) {
  const days = stats.reviewsPerDay.slice(-range);
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const best = days.reduce((top, d) => (d.count > (top?.count ?? 0) ? d : top), null);
  const text = [
    t('stats.reviewsSummary', { days: range, count: total, avg: decimal(total / range) }),
    best ? t('stats.reviewsBest', { count: best.count, date: formatDay(best.date) }) : '',
  ].join(' ').trim();
  host.closest('section').querySelector('#stats-reviews-summary').textContent = text;
  const labels = labelIndices(days.length, width - 40, 84).map((index) => ({
    index,
    text: index === days.length - 1 ? t('stats.todayLabel') : shortDay(days[index].date),
  }));
  render(host, barChart(days.map((d) => ({ value: d.count, title: dayTitle(d) })), {
    width, height: 180, labels, format: formatNumber, label: text,
  }));
}

function drawRetention(host, width, stats, stack) {
  const weeks = stats.retentionPerWeek;
  const values = weeks.filter((w) => w.retention !== null).map((w) => w.retention);
  // The axis starts at 50 % (or lower, in steps of 10, when a week was worse): most weeks lie
  // between 80 and 100 %, which a 0–100 % axis would squeeze into a thin band.
  const min = Math.min(0.5, Math.floor(Math.min(1, ...values) * 10) / 10);
  const ticks = [min, (min + 1) / 2, 1];
  const target = stack?.scheduler === 'fsrs' && stack.desiredRetention
    ? { value: stack.desiredRetention, text: t('stats.target', { percent: percent(stack.desiredRetention) }) } : null;
  const points = weeks.map((w) => ({
    value: w.retention,
    title: w.retention === null ? '' : t('stats.weekTitle', {
      date: formatDay(w.weekStart), percent: percent(w.retention), recalled: formatNumber(w.recalled), reviews: formatNumber(w.reviews),
    }),
  }));
  const labels = labelIndices(weeks.length, width - 40, 84).map((index) => ({ index, text: shortDay(weeks[index].weekStart) }));
  const f = figures(stats);
  render(host, lineChart(points, {
    width, height: 200, min, max: 1, ticks, format: percent, labels, target,
    label: f.retention === null ? t('stats.retentionNone')
      : t('stats.retentionSummary', { percent: percent(f.retention), count: f.weeksWithReviews }),
  }));
}

function drawForecast(host, width, stats) {
  const days = stats.forecast;
  const labels = labelIndices(days.length, width - 40, 70).map((i) => days.length - 1 - i)
    .map((index) => ({ index, text: index === 0 ? t('stats.todayLabel') : shortDay(days[index].date) }));
  const f = figures(stats);
  render(host, barChart(days.map((d, i) => ({
    value: d.count,
    className: i === 0 ? 'bar-today' : '',
    title: datedCount('stats.forecastTitle', d.count, i === 0 ? t('stats.todayLabel') : formatDay(d.date)),
  })), {
    width, height: 180, labels, format: formatNumber,
    label: t('stats.forecastSummary', { count: f.forecastTotal, today: days[0]?.count ?? 0 }),
  }));
}

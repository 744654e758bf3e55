// Small SVG charts of our own, no library: a year heatmap, vertical bars, a line with gaps and a
// stacked bar. Each function returns html`` markup (every text is escaped); colours come from CSS
// classes (app.css, "Statistics"), so the charts follow the colour scheme. Texts are passed in
// by the caller, so this module knows no language. Sizes are CSS pixels: the caller measures its
// container and draws again when the width changes, so text is never scaled.

import { html } from './html.js';

const round = (n) => Math.round(n * 10) / 10;

/**
 * Round axis ticks from 0 to at least `max` (steps of 1, 2 or 5 × 10^n, about `count` of them).
 * `integer`: steps of at least 1 (counts).
 */
function niceTicks(max, { count = 4, integer = true } = {}) {
  if (!(max > 0)) return [0, 1];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 5, 10].map((f) => f * power).find((s) => s >= raw);
  if (integer) step = Math.max(1, Math.round(step));
  const ticks = [0];
  while (ticks[ticks.length - 1] < max) ticks.push(ticks[ticks.length - 1] + step);
  return ticks;
}

/** Width in pixels a short label needs at the charts' 11–12 px font (digits and letters alike). */
const labelWidth = (text) => String(text).length * 7 + 6;

/** Parts of an ISO day 'YYYY-MM-DD': weekday with Monday = 0, and the day of the month. */
function dayParts(date) {
  const [y, m, d] = date.split('-').map(Number);
  return { weekday: (new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7, day: d };
}

/**
 * Levels 0…4 for daily counts: 0 for none, else the quartile of the day among the days with
 * reviews (as GitHub does), so one busy day does not make every other day look empty.
 */
function heatLevels(counts) {
  const sorted = counts.filter((c) => c > 0).sort((a, b) => a - b);
  if (!sorted.length) return () => 0;
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  const limits = [q(0.25), q(0.5), q(0.75)];
  return (count) => {
    if (count <= 0) return 0;
    return 1 + limits.filter((limit) => count > limit).length;
  };
}

/**
 * A year of daily counts as a grid: one column per week (Monday first), one row per weekday,
 * month names above the first week of each month, weekday names on the left.
 * `days` = [{date, count}] oldest first; `options`:
 * - `pitch`: cell size plus gap in pixels;
 * - `title(day)`: the cell's accessible title ("12. März: 14 Wiederholungen");
 * - `monthLabel(date)`, `weekdayLabels` ([Mon … Sun], rows 0, 2 and 4 are shown);
 * - `label`: the summary read for the whole chart; `today`: the date to outline.
 */
export function heatmap(days, { pitch = 15, title, monthLabel, weekdayLabels, label, today }) {
  const left = Math.max(...[0, 2, 4].map((row) => labelWidth(weekdayLabels[row]))) + 2;
  const top = 18;
  const size = pitch - 3;
  const offset = days.length ? dayParts(days[0].date).weekday : 0;
  const columns = Math.ceil((offset + days.length) / 7);
  const level = heatLevels(days.map((d) => d.count));
  const months = [];
  const cells = days.map((day, i) => {
    const slot = offset + i;
    const column = Math.floor(slot / 7);
    // Each month is named above the week of its 1st; the first, partial month too if there is room.
    const first = dayParts(day.date).day === 1;
    if (first || i === 0) months.push({ column, text: monthLabel(day.date), partial: !first });
    const classes = `hm-cell hm-l${level(day.count)}${day.date === today ? ' hm-today' : ''}`;
    return html`<rect class="${classes}" x="${left + column * pitch}" y="${top + (slot % 7) * pitch}" width="${size}" height="${size}" rx="2" data-date="${day.date}" data-count="${day.count}"><title>${title(day)}</title></rect>`;
  });
  const shown = months.filter((m, i) => !(m.partial && months[i + 1] && months[i + 1].column - m.column < 3));
  const lastLabel = shown[shown.length - 1];
  const width = Math.max(left + columns * pitch, lastLabel ? left + lastLabel.column * pitch + labelWidth(lastLabel.text) : 0);
  const height = top + 7 * pitch;
  return html`
    <svg class="heatmap" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="group" aria-label="${label}">
      ${shown.map((m) => html`<text x="${left + m.column * pitch}" y="${top - 6}" aria-hidden="true">${m.text}</text>`)}
      ${[0, 2, 4].map((row) => html`<text x="0" y="${top + row * pitch + size - 1}" aria-hidden="true">${weekdayLabels[row]}</text>`)}
      ${cells}
    </svg>`;
}

/** The heatmap's key: "weniger □□□□□ mehr". */
export const heatLegend = (less, more) => html`
  <div class="hm-legend" aria-hidden="true">
    <span>${less}</span>
    <svg width="68" height="12" viewBox="0 0 68 12">${[0, 1, 2, 3, 4].map((l) => html`<rect class="hm-cell hm-l${l}" x="${l * 14}" y="0" width="12" height="12" rx="2"/>`)}</svg>
    <span>${more}</span>
  </div>`;

/** X positions of axis labels that fit: every `step`-th index, the last one always. */
export function labelIndices(count, width, minGap = 80) {
  if (count <= 1) return [0];
  const step = Math.max(1, Math.ceil((count * minGap) / Math.max(width, 1)));
  const indices = [];
  for (let i = count - 1; i >= 0; i -= step) indices.unshift(i);
  return indices;
}

/** The y axis: horizontal grid lines with their labels; returns the markup and the left margin. */
function yAxis(ticks, { top, plotHeight, width, format, min = 0, max = ticks[ticks.length - 1] }) {
  const left = Math.max(...ticks.map((v) => labelWidth(format(v)))) + 4;
  const y = (v) => round(top + plotHeight - ((v - min) / (max - min || 1)) * plotHeight);
  const markup = ticks.map((v) => html`
    <line class="grid" x1="${left}" x2="${width}" y1="${y(v)}" y2="${y(v)}"/>
    <text class="tick" x="${left - 6}" y="${y(v) + 4}" text-anchor="end" aria-hidden="true">${format(v)}</text>`);
  return { left, y, markup };
}

/** X axis labels under the bands of a bar or line chart; the outer ones are kept inside. */
function xLabels(labels, { x, y, width }) {
  return labels.map(({ index, text }) => {
    const at = x(index);
    const half = labelWidth(text) / 2;
    const anchor = at - half < 0 ? 'start' : at + half > width ? 'end' : 'middle';
    return html`<text class="tick" x="${anchor === 'start' ? Math.max(0, at - 4) : anchor === 'end' ? width : at}" y="${y}" text-anchor="${anchor}" aria-hidden="true">${text}</text>`;
  });
}

/**
 * Vertical bars. `items` = [{value, title, className?}]; `options`: `width`, `height`,
 * `labels` ([{index, text}] under the bars), `format` (axis numbers), `label` (the summary read
 * for the chart: it is an image to assistive technology, the page gives the same in text).
 */
export function barChart(items, { width, height = 180, labels = [], format = String, label }) {
  const top = 8;
  const bottom = 24;
  const plotHeight = height - top - bottom;
  const max = Math.max(0, ...items.map((item) => item.value));
  const ticks = niceTicks(max);
  const axis = yAxis(ticks, { top, plotHeight, width, format });
  const band = (width - axis.left) / Math.max(items.length, 1);
  const barWidth = band >= 4 ? band * 0.72 : Math.max(band - 0.4, 0.6);
  const x = (i) => axis.left + band * i + band / 2;
  const bars = items.map((item, i) => {
    if (!(item.value > 0)) return '';
    const y = axis.y(item.value);
    return html`<rect class="bar ${item.className || ''}" x="${round(x(i) - barWidth / 2)}" y="${y}" width="${round(barWidth)}" height="${round(top + plotHeight - y)}" rx="${barWidth >= 6 ? 2 : 0}"><title>${item.title}</title></rect>`;
  });
  return html`
    <svg class="chart-svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">
      ${axis.markup}
      ${bars}
      ${xLabels(labels, { x, y: height - 6, width })}
    </svg>`;
}

/**
 * A line through `points` ([{value|null, title}]) with a dot at each value; a null breaks the
 * line (a gap). `options`: `width`, `height`, `min`, `max`, `ticks` (axis values), `format`,
 * `labels` ([{index, text}]), `target` ({value, text}: a dashed reference line), `label`.
 */
export function lineChart(points, { width, height = 200, min = 0, max = 1, ticks, format = String, labels = [], target, label }) {
  const top = 10;
  const bottom = 24;
  const plotHeight = height - top - bottom;
  const axis = yAxis(ticks, { top, plotHeight, width, format, min, max });
  const right = 8;
  const step = (width - axis.left - right) / Math.max(points.length - 1, 1);
  const x = (i) => round(axis.left + step * i);
  const runs = [];
  let run = [];
  points.forEach((point, i) => {
    if (point.value === null || point.value === undefined) {
      if (run.length) runs.push(run);
      run = [];
    } else run.push(`${x(i)} ${axis.y(point.value)}`);
  });
  if (run.length) runs.push(run);
  const paths = runs.filter((r) => r.length > 1).map((r) => html`<path class="line" d="M${r.join(' L')}"/>`);
  const dots = points.map((point, i) => (point.value === null || point.value === undefined ? ''
    : html`<circle class="dot" cx="${x(i)}" cy="${axis.y(point.value)}" r="${step >= 10 ? 4 : 3}"><title>${point.title}</title></circle>`));
  const reference = target ? html`
    <line class="target" x1="${axis.left}" x2="${width - right}" y1="${axis.y(target.value)}" y2="${axis.y(target.value)}"/>
    <text class="target-label" x="${width - right}" y="${axis.y(target.value) - 5}" text-anchor="end" aria-hidden="true">${target.text}</text>` : '';
  return html`
    <svg class="chart-svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">
      ${axis.markup}
      ${reference}
      ${paths}
      ${dots}
      ${xLabels(labels, { x, y: height - 6, width })}
    </svg>`;
}

/**
 * One horizontal bar split into `parts` ([{key, value, title}], drawn with class `seg-<key>`),
 * stretched to the container's width; parts of 0 are left out.
 */
export function stackedBar(parts, { label, height = 20 }) {
  const total = parts.reduce((sum, part) => sum + part.value, 0);
  let at = 0;
  const segments = total > 0 ? parts.filter((part) => part.value > 0).map((part) => {
    const w = (part.value / total) * 1000;
    const markup = html`<rect class="seg seg-${part.key}" x="${round(at)}" y="0" width="${round(w)}" height="${height}"><title>${part.title}</title></rect>`;
    at += w;
    return markup;
  }) : html`<rect class="seg seg-empty" x="0" y="0" width="1000" height="${height}"/>`;
  return html`
    <svg class="stacked-bar" width="100%" height="${height}" viewBox="0 0 1000 ${height}" preserveAspectRatio="none" role="img" aria-label="${label}">
      ${segments}
    </svg>`;
}

// The settings' scheduler section: which FSRS parameters the learner's FSRS stacks use (the defaults,
// or fitted to their reviews on a date), fitting them now (an `optimize` job, followed by polling),
// and what the fit changed: kept because new parameters did not predict the latest reviews better,
// or new ones with the change of the month's reviews; a note when memory is hard to predict.
// The server also fits by itself after every 500 new reviews (docs/fsrs.md).

import { html, render } from '../../html.js';
import { formatDateTime, formatPercent as percent, t } from '../../i18n.js';
import { request } from '../../api/client.js';
import { followJob, jobResult } from '../../api/jobs.js';
import { errorText } from '../../ui.js';


/** The sentence on what an optimization did. */
function outcomeText(outcome) {
  if (outcome.kept) return t('scheduler.kept');
  const change = outcome.workloadChange;
  if (change === null || change === undefined) return t('scheduler.fitted');
  if (Math.abs(change) < 0.01) return t('scheduler.same');
  return t(change < 0 ? 'scheduler.fewer' : 'scheduler.more', { percent: percent(Math.abs(change)) });
}

const statusText = (parameters) => (parameters.isDefault ? t('scheduler.defaults')
  : t('scheduler.fittedOn', { date: formatDateTime(parameters.optimizedAt), count: parameters.reviews ?? 0 }));

const panel = (parameters) => html`
  <h2 id="scheduler-title">${t('scheduler.title')}</h2>
  <p id="scheduler-status">${statusText(parameters)}</p>
  <p class="help">${t('scheduler.help')}</p>
  <div class="actions">
    <button type="button" class="btn btn-secondary" id="optimize">${t('scheduler.optimize')}</button>
    ${parameters.isDefault ? '' : html`<button type="button" class="btn btn-ghost" id="reset-parameters">${t('scheduler.reset')}</button>`}
  </div>
  <div id="scheduler-result" aria-live="polite"></div>`;

/** Fills `host` (the section) and wires it until `signal` ends. */
export async function mountSchedulerPanel(host, signal) {
  let parameters;
  try {
    parameters = await request('GET', '/me/scheduler', undefined, { signal });
  } catch (error) {
    if (error.name === 'AbortError') return;
    render(host, html`<h2 id="scheduler-title">${t('scheduler.title')}</h2><p class="field-error" role="alert">${errorText(error)}</p>`);
    return;
  }
  render(host, panel(parameters));
  host.querySelector('#optimize').addEventListener('click', () => optimize(host, signal), { signal });
  host.querySelector('#reset-parameters')?.addEventListener('click', async () => {
    await request('DELETE', '/me/scheduler', undefined, { signal }).catch(() => {});
    if (!signal.aborted) mountSchedulerPanel(host, signal);
  }, { signal });
}

async function optimize(host, signal) {
  const button = host.querySelector('#optimize');
  const result = host.querySelector('#scheduler-result');
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  render(result, html`<p class="muted">${t('scheduler.running')}</p>`);
  try {
    let job = await request('POST', '/me/scheduler/optimize', undefined, { signal });
    job = await followJob(job, {
      signal,
      onUpdate: (update) => {
        const message = update.progress?.message;
        if (message) render(result, html`<p class="muted">${message}</p>`);
      },
    });
    if (job.status !== 'succeeded') {
      render(result, html`<p class="field-error" role="alert">${job.error || t('scheduler.failed')}</p>`);
      return;
    }
    const outcome = jobResult(job);
    render(result, html`
      <p class="scheduler-outcome"><strong>${outcomeText(outcome)}</strong></p>
      ${outcome.check && !outcome.check.healthy ? html`<p class="alert alert-info" role="note">${t('scheduler.unhealthy')}</p>` : ''}`);
    host.querySelector('#scheduler-status').textContent = statusText(outcome);
  } catch (error) {
    if (error.name === 'AbortError') return;
    render(result, html`<p class="field-error" role="alert">${errorText(error)}</p>`);
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}

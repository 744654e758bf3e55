// Following a background job (`GET /api/v1/jobs/{id}`, docs/api.md) until it has ended: shared by
// the "Automatisch erstellen" page (api/generation.js) and the import (api/transfer.js). Polling
// (not the SSE stream) keeps the bearer token in a header and works through any proxy.

import { ApiError, enc, request } from './client.js';

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);
const POLL_MS = 700;
/** Polls in a row that may fail (network, 429, 5xx) before the page gives up on the job. */
const MAX_POLL_FAILURES = 5;
const transient = (error) => error instanceof ApiError && (error.status === 0 || error.status === 429 || error.status >= 500);
const aborted = () => new DOMException('Aborted', 'AbortError');

const sleep = (ms, signal) => new Promise((resolve, reject) => {
  if (signal?.aborted) { reject(aborted()); return; }
  const onAbort = () => { clearTimeout(timer); reject(aborted()); };
  const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
  signal?.addEventListener('abort', onAbort, { once: true });
});

/**
 * Polls `job` until it has succeeded, failed or been cancelled and resolves with its last state.
 * `onUpdate(job)` (may be async) sees the job before every poll. A poll that fails for a transient
 * reason (no connection, 429, 5xx) is tried again. When the page gives up (an error, or `signal`
 * aborted), the job is cancelled on the server unless `cancel` is false (an import the user
 * started should land even when they leave the page).
 */
export async function followJob(job, { signal, onUpdate, cancel = true } = {}) {
  const url = `/jobs/${enc(job.id)}`;
  let failures = 0; // failed polls in a row
  try {
    while (!FINISHED.has(job.status)) {
      await onUpdate?.(job);
      await sleep(POLL_MS, signal);
      try {
        job = await request('GET', url, undefined, { signal });
        failures = 0;
      } catch (error) {
        failures += 1;
        if (!transient(error) || failures >= MAX_POLL_FAILURES) throw error;
      }
    }
  } catch (error) {
    // The job would run on without anyone waiting for it (after a 401 the session is gone).
    if (cancel && error.status !== 401) request('POST', `${url}/cancel`).catch(() => {});
    throw error;
  }
  return job;
}

/** A finished job's `result` (JSON text) as an object; `{}` when absent or unreadable. */
export function jobResult(job) {
  if (!job?.result) return {};
  try {
    const value = JSON.parse(job.result);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

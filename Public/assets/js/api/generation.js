// All API calls of the "Automatisch erstellen" page: start a generation job, follow its progress,
// read the drafts it made, and accept the ones the user keeps (docs/api.md, "Card generation,
// drafts and jobs"). A server without these routes answers 404 `not_found`; the page then says
// that generation is not available there.

import { ApiError, request } from './client.js';

/** Thrown when the server offers no generation API. */
export class GenerationUnavailableError extends Error {
  constructor() {
    super('generation_unavailable');
    this.code = 'generation_unavailable';
  }
}

/** Thrown when the job ends as `failed`; `message` is the server's German explanation. */
export class GenerationFailedError extends Error {
  constructor(message) {
    super(message || 'generation_failed');
    this.code = 'generation_failed';
  }
}

/** Limits the page checks before sending anything (the seed's 10 MB rule). */
export const LIMITS = { maxBytes: 10 * 1024 * 1024 };

const enc = encodeURIComponent;
const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);
const sleep = (ms, signal) => new Promise((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); reject(new DOMException('Aborted', 'AbortError')); }, { once: true });
});

/**
 * Generates card drafts and resolves with them once the job has finished.
 * @param {string} stackId
 * @param {{source: 'pdf'|'photo'|'text'|'topic', file?: File, text?: string, topic?: string,
 *          instructions?: string}} input
 * @param {{signal?: AbortSignal, onProgress?: (job: object) => void}} options
 * @returns {Promise<{jobId: string, drafts: Array<{id: string, question: string, answer: string}>}>}
 */
export async function generateDrafts(stackId, input, { signal, onProgress } = {}) {
  let body;
  if (input.file) {
    body = new FormData();
    body.append('file', input.file);
    if (input.instructions) body.append('customInstructions', input.instructions);
  } else {
    body = { text: input.text || undefined, topic: input.topic || undefined, customInstructions: input.instructions || undefined };
  }
  let job;
  try {
    job = await request('POST', `/stacks/${enc(stackId)}/generations`, body, { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code !== 'stack_not_found') {
      throw new GenerationUnavailableError();
    }
    throw error;
  }
  // Polling (not the SSE stream) keeps the bearer token in a header and works through any proxy.
  try {
    while (!FINISHED.has(job.status)) {
      onProgress?.(job);
      await sleep(800, signal);
      job = await request('GET', `/jobs/${enc(job.id)}`, undefined, { signal });
    }
  } catch (error) {
    if (error.name === 'AbortError') request('POST', `/jobs/${enc(job.id)}/cancel`).catch(() => {});
    throw error;
  }
  onProgress?.(job);
  if (job.status !== 'succeeded') throw new GenerationFailedError(job.error);
  const drafts = await request('GET', `/stacks/${enc(stackId)}/drafts?jobId=${enc(job.id)}`, undefined, { signal });
  return { jobId: job.id, drafts };
}

/**
 * Saves the user's edits to the kept drafts, accepts them as cards and discards the rest.
 * @param {string} stackId
 * @param {Array<{id: string, question: string, answer: string, keep: boolean, changed: boolean}>} drafts
 * @returns {Promise<number>} the number of cards created
 */
export async function acceptDrafts(stackId, drafts) {
  const base = `/stacks/${enc(stackId)}/drafts`;
  for (const d of drafts.filter((x) => x.keep && x.changed)) {
    await request('PATCH', `${base}/${enc(d.id)}`, { question: d.question, answer: d.answer });
  }
  for (const d of drafts.filter((x) => !x.keep)) {
    await request('DELETE', `${base}/${enc(d.id)}`);
  }
  const ids = drafts.filter((x) => x.keep).map((x) => x.id);
  if (!ids.length) return 0;
  const result = await request('POST', `${base}/accept`, { ids });
  return result?.accepted ?? ids.length;
}

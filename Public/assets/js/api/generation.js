// All API calls of the "Automatisch erstellen" page: ask which generator the server uses, start a
// generation job, follow its progress (and the drafts it has saved so far), and accept the ones the
// user keeps (docs/api.md, "Card generation, drafts and jobs"). A server without these routes
// answers 404 `not_found`; the page then says that generation is not available there.

import { ApiError, enc, request } from './client.js';
import { followJob, jobResult } from './jobs.js';

/** Thrown when the server offers no generation API. */
export class GenerationUnavailableError extends Error {
  constructor() {
    super('generation_unavailable');
  }
}

/** Thrown when the job ends as `failed` (or `cancelled`); `message` is the server's German
 * explanation and `reason` the server's error code (e.g. `nothing_generated`), when it sends one. */
export class GenerationFailedError extends Error {
  constructor(message, reason) {
    super(message || 'generation_failed');
    this.reason = reason || null;
  }
}

/** The upload limit when the server does not say (the seed's 10 MB rule). */
const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/** What a server without `GET /generation` (an older one) can do: the offline rules, no topics. */
const OFFLINE = { generator: 'offline', model: null, topics: false, topicBatchSize: 15 };

/**
 * How this server makes cards: `{generator: 'offline'|'model', model, topics, maxUploadBytes,
 * topicBatchSize}`. Never rejects (except when aborted): an older server (404) or a failed request
 * counts as the offline generator without topics, which is what a page must not overclaim.
 * @param {{signal?: AbortSignal}} options
 */
export async function generatorInfo({ signal } = {}) {
  let info = null;
  try {
    info = await request('GET', '/generation', undefined, { auth: false, signal });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
  }
  const result = { ...OFFLINE, ...(info && typeof info === 'object' ? info : {}) };
  result.topics = Boolean(result.topics) && result.generator === 'model';
  if (!(Number(result.maxUploadBytes) > 0)) result.maxUploadBytes = DEFAULT_MAX_BYTES;
  if (!(Number(result.topicBatchSize) > 0)) result.topicBatchSize = OFFLINE.topicBatchSize;
  return result;
}

/**
 * Generates card drafts and resolves with them once the job has finished. While the job runs,
 * `onProgress(job)` sees every poll (and the finished job when it succeeded) and
 * `onDrafts(drafts)` the drafts saved so far (fetched when the job's `cardsCreated` grew), so that
 * a page can show them before the end. A poll that fails for a transient reason (no connection, 429,
 * 5xx) is tried again; when the page gives up on a job (an error, or `signal` aborted), it cancels
 * the job on the server.
 * @param {string} stackId
 * @param {{source: 'pdf'|'photo'|'text'|'topic', file?: File, text?: string, topic?: string,
 *          depth?: number, instructions?: string}} input
 * @param {{signal?: AbortSignal, onProgress?: (job: object) => void,
 *          onDrafts?: (drafts: Array<object>) => void}} options
 * @returns {Promise<{jobId: string, result: object, drafts: Array<object>}>}
 */
export async function generateDrafts(stackId, input, { signal, onProgress, onDrafts } = {}) {
  let body;
  if (input.file) {
    body = new FormData();
    body.append('file', input.file);
    if (input.instructions) body.append('customInstructions', input.instructions);
  } else {
    body = {
      text: input.text || undefined,
      topic: input.topic || undefined,
      depth: input.topic && input.depth > 1 ? input.depth : undefined,
      customInstructions: input.instructions || undefined,
    };
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
  return draftsOfJob(stackId, job, { signal, onProgress, onDrafts });
}

/**
 * The drafts of a generation job started elsewhere (the study partner's "more cards"), followed as
 * `generateDrafts` follows its own while it still runs; leaving it (`signal`) does not cancel the
 * job, so its drafts can be reviewed later.
 */
export async function reviewDrafts(stackId, jobId, { signal, onProgress, onDrafts } = {}) {
  const job = await request('GET', `/jobs/${enc(jobId)}`, undefined, { signal });
  return draftsOfJob(stackId, job, { signal, onProgress, onDrafts, cancel: false });
}

/** Follows `job` until it has ended (cancelled on the server when given up, unless `cancel` is
 * false) and resolves with `{jobId, result, drafts}`; see `generateDrafts`. */
async function draftsOfJob(stackId, job, { signal, onProgress, onDrafts, cancel = true }) {
  const draftsUrl = `/stacks/${enc(stackId)}/drafts?jobId=${enc(job.id)}`;
  let seen = 0; // `cardsCreated` when the drafts were last fetched
  job = await followJob(job, {
    signal,
    cancel,
    async onUpdate(current) {
      onProgress?.(current);
      const made = current.progress?.cardsCreated ?? 0;
      if (!onDrafts || made <= seen) return;
      seen = made;
      // Drafts saved so far; a failed look is no reason to stop following the job.
      try { onDrafts(await request('GET', draftsUrl, undefined, { signal })); } catch (error) {
        if (error.name === 'AbortError') throw error;
      }
    },
  });
  if (job.status !== 'succeeded') throw new GenerationFailedError(job.error, job.errorCode);
  onProgress?.(job);
  const drafts = await request('GET', draftsUrl, undefined, { signal });
  return { jobId: job.id, result: jobResult(job), drafts };
}

/** The pending drafts of a stack (of one job, if given), in the order they were made. */
export function pendingDrafts(stackId, { jobId, signal } = {}) {
  const query = jobId ? `?jobId=${enc(jobId)}` : '';
  return request('GET', `/stacks/${enc(stackId)}/drafts${query}`, undefined, { signal });
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
    // Already gone (discarded by an earlier try that failed later on) is what we want.
    await request('DELETE', `${base}/${enc(d.id)}`).catch((error) => {
      if (!(error instanceof ApiError && error.status === 404)) throw error;
    });
  }
  const ids = drafts.filter((x) => x.keep).map((x) => x.id);
  if (!ids.length) return 0;
  const result = await request('POST', `${base}/accept`, { ids });
  return result?.accepted ?? ids.length;
}

/**
 * The source text of a generation job with its marks (issue 37): sections, blocks, sentences and
 * the drafts made from each. 404 `source_not_found` for a job without one (a topic), and on a
 * server without the route; the page then shows no source.
 */
export function jobSource(stackId, jobId, { signal } = {}) {
  return request('GET', `/stacks/${enc(stackId)}/generations/${enc(jobId)}/source`, undefined, { signal });
}

/** The rules' best card for a passage of the job `jobId` (in its language), not saved:
 * `{question, answer, kind, cardKind}` (kind `manual`: no card found, the question is empty and
 * the answer is the passage). */
export function suggestCard(stackId, passage, { jobId, signal } = {}) {
  return request('POST', `/stacks/${enc(stackId)}/drafts/suggestion`, { passage, jobId: jobId || undefined }, { signal });
}

/**
 * Saves a draft the learner made (from a passage of the job's source; `jobId` is required):
 * resolves with the draft (pending, as `GET …/drafts` lists it).
 * @param {{jobId: string, question: string, answer: string, source?: string, sourcePage?: number, kind?: string}} draft
 */
export function createDraft(stackId, draft) {
  return request('POST', `/stacks/${enc(stackId)}/drafts`, draft);
}

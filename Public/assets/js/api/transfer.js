// Import, export and backup (docs/import.md): the preview of a CSV/TSV file, an Anki package (.apkg)
// or a backup of Smart Flashcards (.json, or zipped), the import job, a stack as a file, and the
// whole account as a backup and its restore. A file goes up as multipart/form-data: the file in
// `file`, the options as JSON text in `options` ({stackId | stackName, separator, hasHeader,
// columns}; for a package or a backup neither stackId nor stackName makes each deck or stack a
// stack of its own).

import { enc, request } from './client.js';
import { followJob, jobResult } from './jobs.js';

/** The largest file the server takes (413 above it). */
export const MAX_IMPORT_BYTES = 100 * 1024 * 1024;

/** Thrown when an import job fails: `problem` is the server's {code, line, note, field, message}. */
export class ImportFailedError extends Error {
  constructor(problem) {
    super(problem.message || problem.code || 'import_failed');
    this.problem = problem;
  }
}

function form(file, options) {
  const body = new FormData();
  body.append('file', file);
  if (options) body.append('options', JSON.stringify(options));
  return body;
}

/** What `file` would import, read with `options`; nothing is written. */
export const previewImport = (file, options, { signal } = {}) =>
  request('POST', '/imports/preview', form(file, options), { signal });

/**
 * Follows an import job (an import or a restore) until it has ended and resolves with its result
 * {stacks: [{id, name, cards, created}], cardsCreated, reviewsImported, mediaSkipped}; a file that
 * breaks a rule rejects with an ImportFailedError naming the problem. The job is not cancelled when
 * the page is left (`signal`): the user asked for the cards.
 */
async function importJob(started, { signal, onProgress }) {
  const job = await followJob(started, { signal, onUpdate: onProgress, cancel: false });
  if (job.status === 'succeeded') return jobResult(job);
  const problem = jobResult(job);
  throw new ImportFailedError({ ...problem, code: job.errorCode || problem.code, message: problem.message || job.error });
}

/** Imports `file` (all or nothing) as `importJob` says; `onProgress(job)` sees the job while it runs. */
export async function importFile(file, options, { signal, onProgress } = {}) {
  const started = await request('POST', '/imports', form(file, options), { signal });
  return importJob(started, { signal, onProgress });
}

/**
 * Restores a backup of the whole account (the JSON or the zip of `downloadBackup`) into this account,
 * which must have no stacks (409 `account_not_empty` otherwise; 415 for a file that is no backup);
 * resolves and rejects as `importJob` says.
 */
export async function restoreAccount(file, { signal, onProgress } = {}) {
  const started = await request('POST', '/me/restore', form(file), { signal });
  return importJob(started, { signal, onProgress });
}

/** The file name of a Content-Disposition header (its UTF-8 form first), or null. */
function fileName(disposition) {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition || '');
  if (utf8) {
    try { return decodeURIComponent(utf8[1]); } catch { /* fall back to the plain name */ }
  }
  return /filename="([^"]+)"/i.exec(disposition || '')?.[1] ?? null;
}

/** A file from the API as {blob, name}: `name` is the Content-Disposition's (null without one). */
async function download(path) {
  const response = await request('GET', path, undefined, { raw: true });
  return { blob: await response.blob(), name: fileName(response.headers.get('Content-Disposition')) };
}

/**
 * A stack as a file: `format` `csv` (Excel: UTF-8 with BOM and a header), `tsv` (Quizlet, Anki),
 * `apkg` (an Anki package) or `json` (a backup of the stack with its review history).
 */
export const exportStack = (stackId, format) => download(`/stacks/${enc(stackId)}/export?format=${enc(format)}`);

/** The whole account as a backup: `zip` (backup.json zipped) or `json`. */
export const downloadBackup = (format = 'zip') => download(`/me/backup?format=${enc(format)}`);

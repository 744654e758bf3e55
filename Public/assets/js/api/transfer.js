// Import and export (docs/import.md): the preview of a CSV/TSV file or an Anki package (.apkg), the
// import job, and a stack as a file. A file goes up as multipart/form-data: the file in `file`, the
// options as JSON text in `options` ({stackId | stackName, separator, hasHeader, columns}; for a
// package neither stackId nor stackName makes each deck a stack of its own).

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
  body.append('options', JSON.stringify(options));
  return body;
}

/** What `file` would import, read with `options`; nothing is written. */
export const previewImport = (file, options, { signal } = {}) =>
  request('POST', '/imports/preview', form(file, options), { signal });

/**
 * Imports `file` (all or nothing) and resolves with the job's result {stacks: [{id, name, cards,
 * created}], cardsCreated, reviewsImported, mediaSkipped}; `onProgress(job)` sees the job while it runs. A file that breaks a rule
 * rejects with an ImportFailedError naming the problem. The job is not cancelled when the page is
 * left (`signal`): the user asked for the cards.
 */
export async function importFile(file, options, { signal, onProgress } = {}) {
  const started = await request('POST', '/imports', form(file, options), { signal });
  const job = await followJob(started, { signal, onUpdate: onProgress, cancel: false });
  if (job.status === 'succeeded') return jobResult(job);
  const problem = jobResult(job);
  throw new ImportFailedError({ ...problem, code: job.errorCode || problem.code, message: problem.message || job.error });
}

/** The file name of a Content-Disposition header (its UTF-8 form first), or null. */
function fileName(disposition) {
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(disposition || '');
  if (utf8) {
    try { return decodeURIComponent(utf8[1]); } catch { /* fall back to the plain name */ }
  }
  return /filename="([^"]+)"/i.exec(disposition || '')?.[1] ?? null;
}

/** A stack as a file: `format` `csv` (Excel: UTF-8 with BOM and a header) or `tsv` (Quizlet, Anki). */
export async function exportStack(stackId, format) {
  const response = await request('GET', `/stacks/${enc(stackId)}/export?format=${enc(format)}`, undefined, { raw: true });
  return { blob: await response.blob(), name: fileName(response.headers.get('Content-Disposition')) };
}

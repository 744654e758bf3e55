// "Daten & Sicherung" in the settings (views/settings.js): the whole account as a backup to download
// (`GET /me/backup?format=zip`, saved like a stack's export) and a backup restored into an account
// without stacks (`POST /me/restore`, a job followed like an import). Whether the account has stacks
// decides what the restore offers: a file and its button, or why it waits for an empty account.
// Strings: more.*.js (`settings.backup.*`, `settings.restore.*`); a failed restore is worded like an
// import's problem (import-text.js, whose strings are loaded when one is shown).

import { html, render } from './html.js';
import { loadStrings, t } from './i18n.js';
import { api } from './api/client.js';
import { ImportFailedError, MAX_IMPORT_BYTES, downloadBackup, restoreAccount } from './api/transfer.js';
import { updateUser } from './account.js';
import { acceptDrops, fileDropzone, sizeText } from './dropzone.js';
import { problemText } from './import-text.js';
import {
  errorText, errorView, fieldError, icon, loadStylesheet, loadingView, saveFile, setBusy, toast,
} from './ui.js';

/** The panel's markup; `mountBackupPanel` makes it work and fills in the restore. */
export const backupPanel = () => html`
  <section class="panel" id="backup" aria-labelledby="backup-title">
    <h2 id="backup-title">${t('settings.backup')}</h2>
    <p class="muted">${t('settings.backup.text')}</p>
    <div><button type="button" class="btn btn-secondary" id="backup-download">${icon('download')}<span>${t('settings.backup.download')}</span></button></div>
    <section class="restore" aria-labelledby="restore-title">
      <h3 id="restore-title">${t('settings.restore')}</h3>
      <div class="restore-body" id="restore-body"></div>
    </section>
  </section>`;

/**
 * Makes the panel work: the download, and the restore as far as the account allows it. `restored`: the
 * result of a restore just done (the page was drawn again with what it brought), shown instead of the
 * restore; `onRestored(result)` runs once a restore has succeeded.
 */
export function mountBackupPanel(panel, { signal, restored, onRestored }) {
  const download = panel.querySelector('#backup-download');
  download.addEventListener('click', () => downloadAccount(download), { signal });
  const body = panel.querySelector('#restore-body');
  if (restored) showRestored(body, restored);
  else offerRestore(body, { signal, onRestored });
}

/** Downloads the whole account as a zip and saves it under the server's name for it. */
async function downloadAccount(button) {
  setBusy(button, true);
  try {
    const { blob, name } = await downloadBackup('zip');
    saveFile(blob, name || 'Smart Flashcards.zip');
    toast(t('settings.backup.downloaded'));
  } catch (error) {
    if (error.status !== 401) toast(t('settings.backup.downloadError'), 'error');
  } finally {
    setBusy(button, false);
  }
}

/** Finds out whether the account has stacks, then offers the restore or says why it waits. */
async function offerRestore(body, options) {
  render(body, loadingView(t('settings.restore.checking')));
  let stacks;
  try {
    // The restore's dropzone looks like the import's (css/import.css).
    [stacks] = await Promise.all([api.stacks({ signal: options.signal }), loadStylesheet('/assets/css/import.css')]);
  } catch (error) {
    if (error.name === 'AbortError' || error.status === 401) return;
    render(body, errorView(errorText(error, 'settings.restore.checkError')));
    body.querySelector('[data-retry]').addEventListener('click', () => offerRestore(body, options), { signal: options.signal });
    return;
  }
  if (stacks.length) showNotEmpty(body, stacks.length);
  else showRestoreForm(body, options);
}

/** Why the restore waits: the account has stacks. Single stacks of a backup can be imported. */
function showNotEmpty(body, count) {
  render(body, html`
    <div class="alert alert-info restore-note" id="restore-not-empty">
      <p>${t('settings.restore.notEmpty', { count })}</p>
      <p>${t('settings.restore.notEmptyHelp')}</p>
    </div>
    <div><a class="btn btn-secondary" href="/app/import">${icon('upload')}<span>${t('settings.restore.toImport')}</span></a></div>`);
}

/** What keeps a chosen file from being sent ('' when nothing does). */
const fileProblem = (file) => (file.size === 0 ? t('settings.restore.emptyFile')
  : file.size > MAX_IMPORT_BYTES ? t('settings.restore.tooLarge') : '');

/** The restore: a backup file (chosen or dropped) and its button; then the job's progress, and its
 * result (`onRestored`) or why it failed. */
function showRestoreForm(body, { signal, onRestored }) {
  render(body, html`
    <p class="muted">${t('settings.restore.text')}</p>
    <form class="restore-form" id="restore-form" novalidate>
      ${fileDropzone({
        id: 'restore-file', label: t('settings.restore.file'), title: t('settings.restore.choose'),
        help: t('settings.restore.fileHelp'), accept: '.json,.zip,application/json,application/zip',
      })}
      <div class="alert alert-error restore-error" id="restore-error" tabindex="-1" hidden></div>
      <div class="form-actions">
        <button type="submit" class="btn btn-primary" id="restore-submit">${icon('upload')}<span>${t('settings.restore.submit')}</span></button>
      </div>
    </form>
    <div class="restore-progress" id="restore-progress" tabindex="-1" hidden>
      <div class="progress-line"><span class="spinner" aria-hidden="true"></span><span id="restore-progress-text" role="status"></span></div>
      <div class="progress" role="progressbar" aria-label="${t('settings.restore.progressLabel')}">
        <span class="progress-bar progress-indeterminate"></span>
      </div>
    </div>`);

  const form = body.querySelector('#restore-form');
  const input = form.querySelector('#restore-file');
  const submit = form.querySelector('#restore-submit');
  const failure = form.querySelector('#restore-error');
  const progress = body.querySelector('#restore-progress');
  const progressText = body.querySelector('#restore-progress-text');

  acceptDrops(form.querySelector('.dropzone'), input);
  input.addEventListener('change', () => {
    const file = input.files[0];
    failure.hidden = true;
    form.querySelector('#restore-file-name').textContent = file
      ? t('settings.restore.selected', { name: file.name, size: sizeText(file.size) }) : '';
    fieldError(input, file ? fileProblem(file) : '');
  }, { signal });

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const file = input.files[0];
    const problem = file ? fileProblem(file) : t('settings.restore.noFile');
    fieldError(input, problem);
    if (problem) { input.focus(); return; }
    failure.hidden = true;
    setBusy(submit, true);
    form.inert = true; // nothing changes while the job runs
    progress.hidden = false;
    progressText.textContent = t('settings.restore.sending');
    progress.focus();
    try {
      const result = await restoreAccount(file, { signal, onProgress: (job) => showProgress(progressText, job) });
      // The restore brought the name and time zone of the backup: the header shows them at once.
      try { updateUser(await api.me()); } catch { /* shown after the next sign-in */ }
      if (!signal.aborted) onRestored(result);
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      progress.hidden = true;
      form.inert = false;
      setBusy(submit, false);
      showFailure(failure, await failureText(error));
    }
  }, { signal });
}

/** The job's stage in words. */
function showProgress(line, job) {
  const p = job.progress || {};
  const text = p.stage === 'queued' ? t('settings.restore.queued')
    : p.stage === 'saving' && Number(p.total) > 0 ? t('settings.restore.saving', { count: p.total })
      : t('settings.restore.running');
  if (line.textContent !== text) line.textContent = text;
}

/**
 * Why a restore failed, in the UI's language: the server's German words where it has them (a file
 * that is no backup, an account that has stacks by now, the job's problem), else from the code.
 */
async function failureText(error) {
  if (error.status === 413) return t('settings.restore.tooLarge');
  const problem = error instanceof ImportFailedError ? error.problem
    : error.status === 415 ? { code: 'not_a_backup', message: error.message }
      : error.status === 409 || error.status === 400 ? { code: error.code, message: error.message }
        : null;
  if (!problem) return errorText(error, 'settings.restore.error');
  await loadStrings('import').catch(() => {}); // offline: the server's German message stands in
  return problemText(problem, { backup: true });
}

/** A failed restore: what went wrong and that nothing changed; the focus goes there. */
function showFailure(box, message) {
  render(box, html`<p><strong>${t('settings.restore.failedTitle')}</strong></p><p>${message}</p>
    <p class="small">${t('settings.restore.failedHelp')}</p>`);
  box.hidden = false;
  box.focus();
}

/** A restore's result: how many stacks and cards it brought, the history, the way to the stacks. */
function showRestored(body, result) {
  const cards = t('settings.restore.cards', { count: result.cardsCreated ?? 0 });
  render(body, html`
    <div class="restore-done" id="restore-done">
      <span class="success-icon" aria-hidden="true">${icon('check')}</span>
      <div>
        <h4 tabindex="-1">${t('settings.restore.done', { count: (result.stacks || []).length, cards })}</h4>
        <p class="muted">${result.reviewsImported
          ? `${t('settings.restore.doneReviews', { count: result.reviewsImported })} ` : ''}${t('settings.restore.doneSettings')}</p>
        <div class="form-actions">
          <a class="btn btn-primary" href="/app/stacks">${icon('cards')}<span>${t('settings.restore.toStacks')}</span></a>
        </div>
      </div>
    </div>`);
  body.querySelector('h4').focus();
}

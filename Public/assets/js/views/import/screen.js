// The import screen's logic (views/import.js): one ImportScreen per visit owns the state
// (import/state.js), listens to the page and renders it with the units of import/render.js. Leaving
// the page (destroy) ends the preview and the polling of a running import (the import itself lands).

import { html, render } from '../../html.js';
import { currentLanguage, t } from '../../i18n.js';
import { ImportFailedError, MAX_IMPORT_BYTES, importFile, previewImport } from '../../api/transfer.js';
import { acceptDrops, sizeText } from '../../dropzone.js';
import { problemText } from '../../import-text.js';
import { leaveTo } from '../../router.js';
import { announce, errorText, fieldError, loadingView, setBusy } from '../../ui.js';
import { ImportState, remap } from './state.js';
import {
  choicesTemplate, doneTemplate, failureTemplate, fileErrorTemplate, previewTemplate, stackOptions,
} from './render.js';

const transientError = (error) => error.status === 0 || error.status === 429 || error.status >= 500;

export class ImportScreen {
  /** `root` holds the page of render.js's pageTemplate; `stacks` and `from` as in ImportState. */
  constructor(root, stacks, from) {
    this.root = root;
    this.state = new ImportState(stacks, from);
    const $ = (sel) => root.querySelector(sel);
    this.el = {
      input: $('#import-file'), fileName: $('#import-file-name'), fileError: $('#file-error'), filePanel: $('#file-panel'),
      tips: $('#tips'), previewPanel: $('#preview'), body: $('#preview-body'), target: $('#target'),
      nameInput: $('#stack-name'), stackSelect: $('#stack-select'), submit: $('#submit'), importError: $('#import-error'),
      progress: $('#progress'), progressText: $('#progress-text'), done: $('#done'), live: $('#import-live'),
      choices: $('#target-choices'),
    };
    this.fillStacks();
    this.listen();
  }

  listen() {
    const { el } = this;
    el.target.addEventListener('change', (event) => {
      if (event.target.name !== 'target') return;
      this.state.targetChoice = event.target.value;
      this.showTarget();
    });
    el.target.addEventListener('submit', (event) => { event.preventDefault(); this.submit(); });
    el.nameInput.addEventListener('input', () => { this.state.nameEdited = true; fieldError(el.nameInput, ''); });
    el.fileError.addEventListener('click', (event) => { if (event.target.closest('[data-retry]')) this.runPreview(); });
    el.input.addEventListener('change', () => this.chooseFile(el.input.files[0]));
    acceptDrops(this.root.querySelector('.dropzone'), el.input);
    this.root.querySelector('#restart').addEventListener('click', () => this.restart());
    el.body.addEventListener('change', (event) => this.changeReading(event.target));
    el.body.addEventListener('input', (event) => this.typeSeparator(event.target));
    el.done.addEventListener('click', (event) => this.clickDone(event));
  }

  /** The user left the page: no preview, no more polling (a running import lands all the same). */
  destroy() {
    this.state.abortAll();
  }

  fillStacks() {
    render(this.el.stackSelect, stackOptions(this.state));
  }

  /** The choices of where the cards go. */
  renderChoices() {
    render(this.el.choices, choicesTemplate(this.state));
    this.el.choices.classList.toggle('has-three', this.state.targets().length === 3);
    this.showTarget();
  }

  showTarget() {
    const chosen = this.state.choice();
    for (const el of this.el.target.querySelectorAll('[data-target]')) el.hidden = el.dataset.target !== chosen;
  }

  // --- Choosing a file ---------------------------------------------------------------------------

  /** The file's problem under the dropzone (`retry`: with "Erneut versuchen", e.g. no connection). */
  showFileError(message, retry = false) {
    render(this.el.fileError, fileErrorTemplate(message, retry));
    this.el.fileError.hidden = !message;
  }

  /** Back to the start: no file, no preview; focus on the file button. */
  restart() {
    const { el } = this;
    this.state.previewing?.abort();
    this.state.clearFile();
    el.input.value = '';
    el.fileName.textContent = '';
    this.showFileError('');
    for (const panel of [el.previewPanel, el.target, el.done, el.progress, el.importError]) panel.hidden = true;
    el.filePanel.hidden = false;
    el.tips.hidden = false;
    el.input.focus();
  }

  chooseFile(file) {
    const { el } = this;
    if (!file) return;
    this.state.setFile(file);
    el.importError.hidden = true;
    el.fileName.textContent = t('imp.selected', { name: file.name, size: sizeText(file.size) });
    const problem = file.size === 0 ? t('imp.emptyFile') : file.size > MAX_IMPORT_BYTES ? t('imp.tooLarge') : '';
    if (problem) {
      this.state.preview = null;
      el.previewPanel.hidden = true;
      el.target.hidden = true;
      this.showFileError(problem);
      el.input.value = ''; // the same file, once fixed, can be chosen again
      return;
    }
    this.runPreview();
  }

  // --- Preview -----------------------------------------------------------------------------------

  /**
   * Why the server refused a file, in the UI's language (its German message where it has one). The
   * refusals carry no code of their own, so English tells them by the file: a zip is a package that
   * holds no Anki collection (415) or a file name that would leave its folder (400); a backup
   * into an existing stack (400) cannot happen here, as it is not offered.
   */
  async refusal(error, fallbackKey) {
    const german = currentLanguage() === 'de';
    if (error.status === 413) return t('imp.tooLarge');
    if (error.status !== 415 && error.status !== 400) return errorText(error, fallbackKey);
    if (german && error.message) return error.message;
    const zip = await this.state.isZip;
    if (error.status === 415) return t(zip ? 'imp.notAnki' : 'imp.unsupported');
    if (!zip) return errorText(error, fallbackKey);
    const name = /: (.+)$/.exec(error.message || '')?.[1];
    return name ? t('imp.unsafeNameNamed', { name }) : t('imp.unsafeName');
  }

  /** Shows that a preview is under way (or over: `busy` false). */
  previewBusy(busy) {
    const panel = this.el.previewPanel;
    if (busy) panel.setAttribute('aria-busy', 'true');
    else panel.removeAttribute('aria-busy');
    panel.classList.toggle('is-loading', busy);
  }

  async runPreview() {
    const { el, state } = this;
    const controller = state.startPreview();
    this.showFileError('');
    el.tips.hidden = true;
    el.previewPanel.hidden = false;
    this.previewBusy(true);
    el.submit.setAttribute('aria-disabled', 'true');
    if (!state.preview) render(el.body, loadingView(t('imp.previewing')));
    else this.root.querySelector('#preview-state').textContent = t('imp.updating');
    try {
      const result = await previewImport(state.file, state.options, { signal: controller.signal });
      if (controller !== state.previewing) return;
      state.preview = result;
      state.previewing = null;
      this.showPreview();
    } catch (error) {
      if (error.name === 'AbortError' || controller !== state.previewing) return;
      state.previewing = null;
      if (error.status !== 401) await this.previewFailed(error);
    } finally {
      if (controller === state.previewing || !state.previewing) this.previewBusy(false);
    }
  }

  async previewFailed(error) {
    const { el, state } = this;
    state.preview = null;
    el.previewPanel.hidden = true;
    el.target.hidden = true;
    el.tips.hidden = false;
    // A refused file cannot become right by asking again (it may be chosen again once fixed); a
    // lost connection or a busy server can.
    const transient = transientError(error);
    if (!transient) el.input.value = '';
    const refused = state.file;
    const message = await this.refusal(error, 'imp.previewError');
    if (state.file === refused && !state.previewing && !state.preview) this.showFileError(message, transient);
  }

  showPreview() {
    const { el, state } = this;
    const focused = el.body.contains(document.activeElement) ? document.activeElement.id : null;
    render(el.body, previewTemplate(state));
    if (focused) this.root.querySelector(`#${CSS.escape(focused)}`)?.focus();
    // A single stack of a backup keeps its name unless renamed (the server names it after the file).
    if (!state.nameEdited) el.nameInput.value = state.suggestedName();
    this.renderChoices();
    el.target.hidden = false;
    el.submit.setAttribute('aria-disabled', String(!state.importable));
    announce(el.live, state.verdictText());
  }

  /** The separator, the header row or a column's role changed: read the file again. */
  changeReading(el) {
    const { state } = this;
    if (el.id === 'separator') {
      state.separatorChoice = el.value;
      const custom = this.el.body.querySelector('#separator-custom');
      custom.closest('.field').hidden = el.value !== 'custom';
      if (el.value === 'custom') { custom.focus(); return; } // runs once a character is typed
      state.options = { ...state.options, separator: el.value || undefined, columns: undefined };
    } else if (el.id === 'has-header') {
      state.options = { ...state.options, hasHeader: el.checked };
    } else if (el.dataset.role) {
      const next = remap(state.preview.columns, el.dataset.role, el.value === '' ? null : Number(el.value));
      if (!next) { this.showPreview(); return; } // front and back always keep a column
      state.options = { ...state.options, columns: next };
    } else {
      return;
    }
    this.runPreview();
  }

  typeSeparator(el) {
    if (el.id !== 'separator-custom') return;
    const char = el.value;
    const ok = Array.from(char).length === 1 && char !== '"';
    fieldError(el, ok || !char ? '' : t('imp.customSepError'));
    if (!ok) return;
    this.state.options = { ...this.state.options, separator: char, columns: undefined };
    this.runPreview();
  }

  // --- Import ------------------------------------------------------------------------------------

  showJob(job) {
    const p = job.progress || {};
    const { preview, hasDecks } = this.state;
    let text = t('imp.stage.reading');
    if (p.stage === 'queued') text = t('imp.stage.queued');
    else if (p.stage === 'saving' && Number(p.total) > 0) {
      text = t(hasDecks && preview.reviews ? 'imp.stage.savingHistory' : 'imp.stage.saving', { count: p.total });
    } else if (p.stage !== 'reading' && currentLanguage() === 'de' && p.message) text = p.message;
    if (this.el.progressText.textContent !== text) this.el.progressText.textContent = text;
  }

  showFailure(message) {
    const { importError } = this.el;
    render(importError, failureTemplate(this.state, message));
    importError.hidden = false;
    importError.focus();
  }

  showDone(result) {
    const { el } = this;
    this.state.addStacks(result.stacks || []);
    render(el.done, doneTemplate(result));
    for (const panel of [el.filePanel, el.tips, el.previewPanel, el.target, el.progress]) panel.hidden = true;
    el.done.hidden = false;
    el.done.querySelector('h2').focus();
  }

  /** Done: the stack page replaces this one (or Back returns to it), so Back never shows the import
   * again; "Weitere Datei importieren" starts over. */
  clickDone(event) {
    const link = event.target.closest('a[data-leave]');
    if (link) {
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      event.preventDefault();
      leaveTo(link.getAttribute('href'));
    } else if (event.target.closest('#again')) {
      this.fillStacks();
      this.restart();
    }
  }

  /** Whether the import may start; says why not at the field or the problems. */
  checkSubmit(where, name) {
    const { el } = this;
    if (!this.state.importable) {
      render(el.importError, html`<p>${t('imp.blocked')}</p>`);
      el.importError.hidden = false;
      (this.root.querySelector('#problems') || el.importError).focus();
      return false;
    }
    if (where === 'new' && (!name || Array.from(name).length > 200)) {
      fieldError(el.nameInput, t('imp.stackNameError'));
      el.nameInput.focus();
      return false;
    }
    return true;
  }

  async submit() {
    const { el, state } = this;
    if (state.running || state.previewing || !state.preview) return;
    el.importError.hidden = true;
    const name = el.nameInput.value.trim();
    const where = state.choice();
    if (!this.checkSubmit(where, name)) return;
    const chosen = state.importChoices(where, { name, stackId: el.stackSelect.value });
    const controller = new AbortController();
    state.running = controller;
    const outcome = await this.whileRunning(() => importFile(state.file, chosen, {
      signal: controller.signal, onProgress: (job) => this.showJob(job),
    }).catch((error) => error));
    if (state.running === controller) state.running = null;
    if (!(outcome instanceof Error)) { this.showDone(outcome); return; }
    if (outcome.name === 'AbortError' || outcome.status === 401) return;
    el.progress.hidden = true;
    this.showFailure(outcome instanceof ImportFailedError
      ? problemText(outcome.problem, { backup: state.isBackup }) : await this.refusal(outcome, 'imp.importError'));
  }

  /** Runs `work` with the progress shown and the page frozen (nothing changes while the job runs). */
  async whileRunning(work) {
    const { el } = this;
    setBusy(el.submit, true);
    const frozen = [el.filePanel, el.previewPanel, el.target];
    for (const panel of frozen) panel.inert = true;
    el.progress.hidden = false;
    el.progressText.textContent = t('imp.stage.sending');
    el.progress.focus();
    try {
      return await work();
    } finally {
      setBusy(el.submit, false);
      for (const panel of frozen) panel.inert = false;
    }
  }
}

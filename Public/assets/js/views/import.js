// "Karten importieren" (/app/import from the library; /app/import?stack={id} from a stack's page,
// which preselects that stack). A file (button or drag and drop) goes to the server's preview.
// CSV/TSV: how it was read, the first rows with the column mapping, the cards it makes and the
// problems with their lines; changing the separator, the header or the mapping runs it again.
// An Anki package (.apkg): its decks, notes, cards, review history and media, the first cards as
// questions and answers, the problems with their note ids; each deck becomes a stack unless all go
// into one new or existing stack. A backup of Smart Flashcards (.json, or zipped: a stack's export or
// a whole account's): its stacks shown like decks, each added as a copy with its history (a single
// one may be renamed; never into an existing stack). The import is refused while the file has
// problems; it runs as a job (all or nothing) and ends with links to the stacks. Strings:
// i18n/import.*.js; styles: css/import.css.

import { html, render } from '../html.js';
import { currentLanguage, formatNumber, loadStrings, t } from '../i18n.js';
import { api } from '../api/client.js';
import { ImportFailedError, MAX_IMPORT_BYTES, importFile, previewImport } from '../api/transfer.js';
import { acceptDrops, fileDropzone, sizeText } from '../dropzone.js';
import { problemText } from '../import-text.js';
import { leaveTo } from '../router.js';
import {
  announce, defineIcons, errorText, errorView, fieldError, icon, loadStylesheet, loadingView, retryable, setBusy,
  stackBreadcrumb, stacksBreadcrumb,
} from '../ui.js';

defineIcons({ image: 'M5 4h14a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1Zm-1 12 5-5 5 5 2-2 4 4M15 9.5a1.5 1.5 0 1 0 0-.01' });

const ROLES = ['front', 'back', 'hint', 'tags'];
/** The separators offered by name (value → string key); anything else is a custom one. */
const SEPARATORS = { '\t': 'tab', ',': 'comma', ';': 'semicolon' };
/** The words that differ between an Anki package and a backup (by the preview's `format`). */
const PACKAGE_WORDS = {
  apkg: {
    format: 'imp.formatApkg', caption: 'imp.decksCaption', deck: 'imp.deck', history: 'imp.history',
    noHistory: 'imp.noHistory', cardsAll: 'imp.cardsAll', cardsFirst: 'imp.cardsFirst', noCards: 'imp.noCardsPackage',
    problem: 'imp.packageProblem', failedHelp: 'imp.failedHelpAnki',
  },
  json: {
    format: 'imp.formatBackup', caption: 'imp.backupCaption', deck: 'imp.stack', history: 'imp.backupHistory',
    noHistory: 'imp.backupNoHistory', cardsAll: 'imp.backupCardsAll', cardsFirst: 'imp.backupCardsFirst',
    noCards: 'imp.backupNoCards', problem: 'imp.backupProblem', failedHelp: 'imp.failedHelpBackup',
  },
};
/** Whether the first bytes of `file` are a zip's ("PK"), as the server tells an Anki package. */
const sniffZip = (file) => file.slice(0, 2).arrayBuffer()
  .then((bytes) => new Uint8Array(bytes).join() === '80,75')
  .catch(() => /\.(apkg|colpkg|zip)$/i.test(file.name));

/** An Anki deck's path ("Biologie::Zellen") that may break after each "::" on a narrow screen (a
 * backup's stack names alike). */
const deckName = (name) => html`${String(name).split('::').map((part, i) => html`${i ? html`::<wbr>` : ''}${part}`)}`;

const separatorName = (sep) => (SEPARATORS[sep] ? t(`imp.sep.${SEPARATORS[sep]}`) : t('imp.sep.other', { char: sep }));

const shorten = (text, max = 24) => {
  const chars = Array.from(String(text ?? '').replace(/\s+/g, ' ').trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
};

/**
 * `columns` with `role` moved to `column` (null: none): a role that had that column takes the old
 * one of `role` (the two swap). Null when front or back would be left without a column.
 */
export function remap(columns, role, column) {
  const next = { ...columns, [role]: column };
  if (column === null) return next;
  for (const other of ROLES) {
    if (other === role || next[other] !== column) continue;
    next[other] = columns[role] ?? null;
    if (next[other] === null && (other === 'front' || other === 'back')) return null;
  }
  return next;
}

export const mount = retryable(mountPage);

async function mountPage(root, { query }, reload) {
  render(root, loadingView(t('loading')));
  let stacks;
  try {
    [stacks] = await Promise.all([api.stacks(), loadStrings('import'), loadStylesheet('/assets/css/import.css')]);
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  const from = stacks.find((s) => s.id === query.get('stack'));

  render(root, html`
    <section class="page page-narrow import-page">
      ${from ? stackBreadcrumb(from, `/app/stacks/${from.id}`, t('imp.crumb')) : stacksBreadcrumb(t('imp.crumb'))}
      <div class="panel" id="file-panel">
        <h1>${t('imp.title')}</h1>
        <p class="muted">${t('imp.lead')}</p>
        ${fileDropzone({
          id: 'import-file', label: t('imp.file'), title: t('imp.choose'), help: t('imp.fileHelp'),
          accept: '.apkg,.json,.zip,.csv,.tsv,.txt,application/json,text/csv,text/tab-separated-values,text/plain',
        })}
        <div class="alert alert-error" role="alert" id="file-error" hidden></div>
      </div>

      <section class="panel import-tips" id="tips" aria-labelledby="tips-title">
        <h2 id="tips-title">${t('imp.tipsTitle')}</h2>
        <ul>${['anki', 'quizlet', 'excel', 'backup'].map((k) => html`<li>${t(`imp.tip.${k}`)}</li>`)}</ul>
      </section>

      <section class="panel import-preview" id="preview" aria-labelledby="preview-title" hidden>
        <div class="panel-title-row">
          <h2 id="preview-title">${t('imp.previewTitle')}</h2>
          <button type="button" class="btn btn-secondary" id="restart">${icon('undo')}<span>${t('imp.restart')}</span></button>
        </div>
        <div id="preview-body"></div>
      </section>

      <form class="panel" id="target" novalidate aria-labelledby="target-title" hidden>
        <h2 id="target-title">${t('imp.target')}</h2>
        <fieldset class="choice-group" id="target-choices"></fieldset>
        <div class="field" data-target="new">
          <label for="stack-name">${t('imp.stackName')}</label>
          <input id="stack-name" name="stackName" type="text" maxlength="200" autocomplete="off">
        </div>
        <div class="field" data-target="existing">
          <label for="stack-select">${t('imp.stack')}</label>
          <select id="stack-select" name="stackId"></select>
        </div>
        <div class="alert alert-error import-error" id="import-error" tabindex="-1" hidden></div>
        <div class="form-actions">
          <button type="submit" class="btn btn-primary" id="submit">${icon('upload')}<span>${t('imp.submit')}</span></button>
        </div>
      </form>

      <div class="panel progress-panel" id="progress" tabindex="-1" hidden>
        <div class="progress-line">
          <span class="spinner" aria-hidden="true"></span>
          <span id="progress-text" role="status"></span>
        </div>
        <div class="progress" role="progressbar" aria-label="${t('imp.progressLabel')}">
          <span class="progress-bar progress-indeterminate"></span>
        </div>
      </div>

      <div class="panel success-panel" id="done" hidden></div>
      <p class="visually-hidden" role="status" id="import-live"></p>
    </section>`);

  const $ = (sel) => root.querySelector(sel);
  const input = $('#import-file');
  const fileName = $('#import-file-name');
  const fileError = $('#file-error');
  const tips = $('#tips');
  const previewPanel = $('#preview');
  const body = $('#preview-body');
  const target = $('#target');
  const nameInput = $('#stack-name');
  const stackSelect = $('#stack-select');
  const submit = $('#submit');
  const importError = $('#import-error');
  const progress = $('#progress');
  const progressText = $('#progress-text');
  const done = $('#done');
  const live = $('#import-live');
  const choices = $('#target-choices');

  let file = null;
  let isZip = Promise.resolve(false); // whether `file` is a zip (an Anki package or meant as one)
  let options = {}; // what the user set: separator, hasHeader, columns (absent: the server decides)
  let separatorChoice = ''; // '' automatic, a separator, or 'custom'
  let preview = null;
  let previewing = null; // the AbortController of the preview under way
  let running = null; // the AbortController of the import under way
  let nameEdited = false;
  let targetChoice = null; // the target the user picked for this file: 'decks', 'new' or 'existing'

  const isAnki = () => preview?.format === 'apkg';
  const isBackup = () => preview?.format === 'json';
  /** An Anki package or a backup: decks (stacks) with their cards and history, no CSV controls. */
  const hasDecks = () => isAnki() || isBackup();
  const words = () => PACKAGE_WORDS[preview.format];

  function fillStacks() {
    render(stackSelect, html`${stacks.map((s) => html`
      <option value="${s.id}" ${s.id === from?.id ? 'selected' : ''}>${s.name}</option>`)}`);
  }
  fillStacks();

  /** Where the cards may go, in the order offered: an Anki package's decks each as a stack first; a
   * backup's stacks only as copies (a single one also under a new name), never into an existing one. */
  function targets() {
    if (isBackup()) return ['decks', ...(preview.decks?.length === 1 ? ['new'] : [])];
    return [...(isAnki() ? ['decks'] : []), 'new', ...(stacks.length ? ['existing'] : [])];
  }

  /** The target chosen: the user's pick, else the stack the page came from, else the first offered. */
  function choice() {
    const offered = targets();
    if (offered.includes(targetChoice)) return targetChoice;
    if (from && offered.includes('existing')) return 'existing';
    return offered[0];
  }

  /** A target's title and help in the choices. */
  function targetText(value) {
    const decks = preview?.decks || [];
    if (value === 'decks' && isBackup()) {
      return [t('imp.targetCopies', { count: decks.length }), !decks.length ? t('imp.targetCopiesAny')
        : t('imp.targetCopiesHelp', { count: decks.length, name: decks[0].name })];
    }
    if (value === 'decks') {
      return [t('imp.targetDecks'), !decks.length ? t('imp.targetDecksAny')
        : decks.length === 1 ? t('imp.targetDecksOne', { name: decks[0].name }) : t('imp.targetDecksHelp', { count: decks.length })];
    }
    if (value === 'new') {
      if (isBackup()) return [t('imp.targetRename'), t('imp.targetRenameHelp')];
      return isAnki() ? [t('imp.targetOne'), t('imp.targetOneHelp')] : [t('imp.targetNew'), t('imp.targetNewHelp')];
    }
    return [t('imp.targetExisting'), t(isAnki() ? 'imp.targetExistingAllHelp' : 'imp.targetExistingHelp')];
  }

  /** The choices of where the cards go. */
  function renderChoices() {
    const chosen = choice();
    const offered = targets();
    render(choices, html`
      <legend class="visually-hidden">${t('imp.target')}</legend>
      ${offered.map((value) => {
        const [title, help] = targetText(value);
        return html`
          <label class="choice">
            <input type="radio" name="target" value="${value}" ${chosen === value ? 'checked' : ''}>
            <span><strong>${title}</strong><span class="small muted">${help}</span></span>
          </label>`;
      })}`);
    choices.classList.toggle('has-three', offered.length === 3);
    showTarget();
  }

  function showTarget() {
    const chosen = choice();
    for (const el of target.querySelectorAll('[data-target]')) el.hidden = el.dataset.target !== chosen;
  }
  target.addEventListener('change', (event) => {
    if (event.target.name !== 'target') return;
    targetChoice = event.target.value;
    showTarget();
  });
  nameInput.addEventListener('input', () => { nameEdited = true; fieldError(nameInput, ''); });

  const importable = () => Boolean(preview) && !previewing && preview.cards > 0 && !preview.rejected && !preview.problems.length;

  // --- Choosing a file ---------------------------------------------------------------------------

  /** The file's problem under the dropzone (`retry`: with "Erneut versuchen", e.g. no connection). */
  function showFileError(message, retry = false) {
    render(fileError, html`<span>${message}</span>${retry ? html`
      <button type="button" class="btn btn-secondary" data-retry>${t('retry')}</button>` : ''}`);
    fileError.hidden = !message;
  }
  fileError.addEventListener('click', (event) => { if (event.target.closest('[data-retry]')) runPreview(); });

  /** Back to the start: no file, no preview; focus on the file button. */
  function restart() {
    previewing?.abort();
    previewing = null;
    file = null;
    preview = null;
    targetChoice = null;
    input.value = '';
    fileName.textContent = '';
    showFileError('');
    previewPanel.hidden = true;
    target.hidden = true;
    done.hidden = true;
    progress.hidden = true;
    importError.hidden = true;
    $('#file-panel').hidden = false;
    tips.hidden = false;
    input.focus();
  }

  input.addEventListener('change', () => {
    const chosen = input.files[0];
    if (!chosen) return;
    file = chosen;
    isZip = sniffZip(chosen);
    options = {};
    separatorChoice = '';
    nameEdited = false;
    targetChoice = null;
    importError.hidden = true;
    fileName.textContent = t('imp.selected', { name: file.name, size: sizeText(file.size) });
    const problem = file.size === 0 ? t('imp.emptyFile') : file.size > MAX_IMPORT_BYTES ? t('imp.tooLarge') : '';
    if (problem) {
      preview = null;
      previewPanel.hidden = true;
      target.hidden = true;
      showFileError(problem);
      input.value = ''; // the same file, once fixed, can be chosen again
      return;
    }
    runPreview();
  });
  acceptDrops($('.dropzone'), input);
  $('#restart').addEventListener('click', restart);

  // --- Preview -----------------------------------------------------------------------------------

  /**
   * Why the server refused a file, in the UI's language (its German message where it has one). The
   * refusals carry no code of their own, so English tells them by the file: a zip is a package that
   * holds no Anki collection (415) or a file name that would leave its folder (400); a backup
   * into an existing stack (400) cannot happen here, as it is not offered.
   */
  async function refusal(error, fallbackKey) {
    const german = currentLanguage() === 'de';
    if (error.status === 413) return t('imp.tooLarge');
    if (error.status !== 415 && error.status !== 400) return errorText(error, fallbackKey);
    if (german && error.message) return error.message;
    const zip = await isZip;
    if (error.status === 415) return t(zip ? 'imp.notAnki' : 'imp.unsupported');
    if (!zip) return errorText(error, fallbackKey);
    const name = /: (.+)$/.exec(error.message || '')?.[1];
    return name ? t('imp.unsafeNameNamed', { name }) : t('imp.unsafeName');
  }

  async function runPreview() {
    previewing?.abort();
    const controller = new AbortController();
    previewing = controller;
    showFileError('');
    tips.hidden = true;
    previewPanel.hidden = false;
    previewPanel.setAttribute('aria-busy', 'true');
    previewPanel.classList.add('is-loading');
    submit.setAttribute('aria-disabled', 'true');
    if (!preview) render(body, loadingView(t('imp.previewing')));
    else $('#preview-state').textContent = t('imp.updating');
    try {
      const result = await previewImport(file, options, { signal: controller.signal });
      if (controller !== previewing) return;
      preview = result;
      previewing = null;
      showPreview();
    } catch (error) {
      if (error.name === 'AbortError' || controller !== previewing) return;
      previewing = null;
      if (error.status === 401) return;
      preview = null;
      previewPanel.hidden = true;
      target.hidden = true;
      tips.hidden = false;
      // A refused file cannot become right by asking again (it may be chosen again once fixed); a
      // lost connection or a busy server can.
      const transient = error.status === 0 || error.status === 429 || error.status >= 500;
      if (!transient) input.value = '';
      const refused = file;
      const message = await refusal(error, 'imp.previewError');
      if (file === refused && !previewing && !preview) showFileError(message, transient);
    } finally {
      if (controller === previewing || !previewing) {
        previewPanel.removeAttribute('aria-busy');
        previewPanel.classList.remove('is-loading');
      }
    }
  }

  /** The verdict in a sentence: the cards to import, or that problems stop it. */
  function verdictText() {
    const { cards, rejected, problems } = preview;
    if (hasDecks()) {
      // Notes that break a rule are counted; a package or backup that cannot be read is one problem.
      if (rejected && problems.some((p) => p.note != null)) return t('imp.notesProblemsTitle', { count: rejected });
      if (rejected || problems.length) return t(words().problem);
      return cards ? t('imp.count', { count: cards }) : t(words().noCards);
    }
    if (rejected) return t('imp.problemsTitle', { count: rejected });
    if (problems.length) return t('imp.problemsAny');
    return cards ? t('imp.count', { count: cards }) : t('imp.noCards');
  }

  /** The verdict: the cards to import, or the problems that stop it. */
  function verdict() {
    const { cards, rejected, problems } = preview;
    if (rejected || problems.length) {
      const more = rejected - problems.length;
      return html`
        <div class="alert alert-error import-problems" id="problems" tabindex="-1">
          <p><strong>${verdictText()}</strong></p>
          <ul>${problems.map((p) => html`<li>${problemText(p, { backup: isBackup() })}</li>`)}</ul>
          ${more > 0 ? html`<p>${t('imp.moreProblems', { count: more })}</p>` : ''}
          <p class="small">${t(isBackup() ? 'imp.backupProblemsHelp' : !isAnki() ? 'imp.problemsHelp'
            : problems.some((p) => p.note != null) ? 'imp.ankiProblemsHelp' : 'imp.packageProblemsHelp')}</p>
        </div>`;
    }
    if (!cards) return html`<p class="alert alert-info" id="problems" tabindex="-1">${verdictText()}</p>`;
    return html`<p class="import-count">${icon('check')}<span>${verdictText()}</span></p>`;
  }

  /** "Antwort (Spalte 2)" with a header, else "Spalte 2: Hund" (the first row's value). */
  function columnLabel(i) {
    const n = i + 1;
    if (preview.header?.[i]) return t('imp.columnNamed', { name: shorten(preview.header[i]), n });
    const sample = preview.rows[0]?.[i];
    return sample ? `${t('imp.column', { n })}: ${shorten(sample)}` : t('imp.column', { n });
  }

  /** An Anki package or a backup: what it holds (decks or stacks, notes, cards, history, media) and
   * its first cards. */
  function packagePreview(p) {
    const decks = p.decks || [];
    const w = words();
    const cell = (text) => html`<td><span class="qa" title="${text}">${text}</span></td>`;
    return html`
      <dl class="import-facts" aria-label="${t(isBackup() ? 'imp.backupFacts' : 'imp.packageFacts')}">
        <div><dt>${t('imp.format')}</dt><dd>${t(w.format)}</dd></div>
        ${p.notes != null ? html`<div><dt>${t('imp.notes')}</dt><dd>${formatNumber(p.notes)}</dd></div>` : ''}
        ${isBackup() && p.decks ? html`<div><dt>${t('imp.stacks')}</dt><dd>${formatNumber(decks.length)}</dd></div>` : ''}
        ${p.decks ? html`<div><dt>${t('imp.cards')}</dt><dd>${formatNumber(p.cards)}</dd></div>` : ''}
        ${p.reviews != null ? html`<div><dt>${t('imp.reviews')}</dt><dd>${formatNumber(p.reviews)}</dd></div>` : ''}
      </dl>
      ${decks.length ? html`
        <div class="import-table-wrap">
          <table class="import-table import-decks">
            <caption>${t(w.caption, { count: decks.length })}</caption>
            <thead><tr>
              <th scope="col">${t(w.deck)}</th>
              <th scope="col" class="num">${t('imp.cards')}</th>
              <th scope="col" class="num">${t('imp.reviews')}</th>
            </tr></thead>
            <tbody>${decks.map((d) => html`<tr>
              <th scope="row">${deckName(d.name)}</th>
              <td class="num">${formatNumber(d.cards)}</td>
              <td class="num">${formatNumber(d.reviews)}</td>
            </tr>`)}</tbody>
          </table>
        </div>` : ''}
      ${p.decks ? html`
        <ul class="import-notes">
          <li>${icon('clock')}<span>${p.reviews ? t(w.history, { count: p.reviews }) : t(w.noHistory)}</span></li>
          ${p.media ? html`<li>${icon('image')}<span>${t('imp.media', { count: p.media })}</span></li>` : ''}
        </ul>` : ''}
      ${p.rows.length ? html`
        <div class="import-table-wrap">
          <table class="import-table import-qa">
            <caption>${t(p.rows.length < p.cards ? w.cardsFirst : w.cardsAll, { count: p.rows.length })}</caption>
            <thead><tr><th scope="col">${t('imp.role.front')}</th><th scope="col">${t('imp.role.back')}</th></tr></thead>
            <tbody>${p.rows.map((row) => html`<tr>${cell(row[0] ?? '')}${cell(row[1] ?? '')}</tr>`)}</tbody>
          </table>
        </div>` : ''}`;
  }

  /** A CSV/TSV file: how it was read, the separator, header and mapping, and its first rows. */
  function delimitedPreview(p) {
    const cols = p.columns || {};
    const indexes = [...Array(p.columnCount).keys()];
    const roleOf = (i) => ROLES.find((role) => cols[role] === i);
    const total = p.cards + p.rejected;
    return html`
      <dl class="import-facts" aria-label="${t('imp.read')}">
        <div><dt>${t('imp.encoding')}</dt><dd>${p.encoding ? t(`imp.enc.${p.encoding}`) : '–'}</dd></div>
        <div><dt>${t('imp.separator')}</dt><dd>${p.separator ? separatorName(p.separator) : '–'}</dd></div>
        <div><dt>${t('imp.headerRow')}</dt><dd>${t(p.hasHeader ? 'imp.yes' : 'imp.no')}</dd></div>
      </dl>
      <div class="import-options">
        <div class="field">
          <label for="separator">${t('imp.separator')}</label>
          <select id="separator">
            <option value="" ${separatorChoice === '' ? 'selected' : ''}>${p.separator && !options.separator
              ? t('imp.sep.autoFound', { name: separatorName(p.separator) }) : t('imp.sep.auto')}</option>
            ${Object.keys(SEPARATORS).map((sep) => html`<option value="${sep}" ${separatorChoice === sep ? 'selected' : ''}>${separatorName(sep)}</option>`)}
            <option value="custom" ${separatorChoice === 'custom' ? 'selected' : ''}>${t('imp.sep.custom')}</option>
          </select>
        </div>
        <div class="field" ${separatorChoice === 'custom' ? '' : 'hidden'}>
          <label for="separator-custom">${t('imp.customSep')}</label>
          <input id="separator-custom" type="text" maxlength="1" autocomplete="off" spellcheck="false"
            value="${separatorChoice === 'custom' ? options.separator ?? '' : ''}">
        </div>
        <label class="check-row">
          <input type="checkbox" id="has-header" ${p.hasHeader ? 'checked' : ''}>
          <span>${t('imp.header')}</span>
        </label>
      </div>
      ${p.columnCount > 0 ? html`
        <fieldset class="import-mapping">
          <legend>${t('imp.mapping')}</legend>
          <div class="mapping-grid">
            ${ROLES.map((role) => html`
              <div class="field">
                <label for="map-${role}">${t(`imp.role.${role}`)}</label>
                <select id="map-${role}" data-role="${role}">
                  ${role === 'hint' || role === 'tags' ? html`<option value="" ${cols[role] == null ? 'selected' : ''}>${t('imp.none')}</option>` : ''}
                  ${indexes.map((i) => html`<option value="${i}" ${cols[role] === i ? 'selected' : ''}>${columnLabel(i)}</option>`)}
                </select>
              </div>`)}
          </div>
        </fieldset>
        <div class="import-table-wrap" role="region" tabindex="0" aria-labelledby="rows-caption">
          <table class="import-table">
            <caption id="rows-caption">${t(p.rows.length < total ? 'imp.rowsFirst' : 'imp.rowsAll', { count: p.rows.length })}</caption>
            <thead>
              <tr>${indexes.map((i) => html`
                <th scope="col" class="${roleOf(i) ? '' : 'is-unused'}">
                  <span>${t('imp.column', { n: i + 1 })}</span>
                  ${p.header?.[i] ? html`<span class="col-name" title="${p.header[i]}">${shorten(p.header[i], 30)}</span>` : ''}
                  ${roleOf(i) ? html`<span class="pill pill-role">${t(`imp.role.${roleOf(i)}`)}</span>` : ''}
                </th>`)}
              </tr>
            </thead>
            <tbody>
              ${p.rows.map((row) => html`<tr>${indexes.map((i) => html`
                <td class="${roleOf(i) ? '' : 'is-unused'}"><span class="cell" title="${row[i] ?? ''}">${row[i] ?? ''}</span></td>`)}</tr>`)}
            </tbody>
          </table>
        </div>` : ''}`;
  }

  function showPreview() {
    const p = preview;
    const focused = body.contains(document.activeElement) ? document.activeElement.id : null;
    render(body, html`
      <p class="small muted" id="preview-state" role="status"></p>
      ${hasDecks() ? packagePreview(p) : delimitedPreview(p)}
      ${verdict()}`);
    if (focused) root.querySelector(`#${CSS.escape(focused)}`)?.focus();
    // A single stack of a backup keeps its name unless renamed (the server names it after the file).
    if (!nameEdited) nameInput.value = (isBackup() && p.decks?.length === 1 ? p.decks[0].name : p.suggestedStackName) || '';
    renderChoices();
    target.hidden = false;
    submit.setAttribute('aria-disabled', String(!importable()));
    announce(live, verdictText());
  }

  body.addEventListener('change', (event) => {
    const el = event.target;
    if (el.id === 'separator') {
      separatorChoice = el.value;
      const custom = body.querySelector('#separator-custom');
      custom.closest('.field').hidden = el.value !== 'custom';
      if (el.value === 'custom') { custom.focus(); return; } // runs once a character is typed
      options = { ...options, separator: el.value || undefined, columns: undefined };
      runPreview();
    } else if (el.id === 'has-header') {
      options = { ...options, hasHeader: el.checked };
      runPreview();
    } else if (el.dataset.role) {
      const next = remap(preview.columns, el.dataset.role, el.value === '' ? null : Number(el.value));
      if (!next) { showPreview(); return; } // front and back always keep a column
      options = { ...options, columns: next };
      runPreview();
    }
  });
  body.addEventListener('input', (event) => {
    if (event.target.id !== 'separator-custom') return;
    const char = event.target.value;
    const ok = Array.from(char).length === 1 && char !== '"';
    fieldError(event.target, ok || !char ? '' : t('imp.customSepError'));
    if (!ok) return;
    options = { ...options, separator: char, columns: undefined };
    runPreview();
  });

  // --- Import ------------------------------------------------------------------------------------

  function showJob(job) {
    const p = job.progress || {};
    let text = t('imp.stage.reading');
    if (p.stage === 'queued') text = t('imp.stage.queued');
    else if (p.stage === 'saving' && Number(p.total) > 0) {
      text = t(hasDecks() && preview.reviews ? 'imp.stage.savingHistory' : 'imp.stage.saving', { count: p.total });
    }
    else if (p.stage !== 'reading' && currentLanguage() === 'de' && p.message) text = p.message;
    if (progressText.textContent !== text) progressText.textContent = text;
  }

  function showFailure(message) {
    render(importError, html`<p><strong>${t('imp.failedTitle')}</strong></p><p>${message}</p>
      <p class="small">${t(hasDecks() ? words().failedHelp : 'imp.failedHelp')}</p>`);
    importError.hidden = false;
    importError.focus();
  }

  /** The result: the stack (or, from an Anki package or a backup, each stack with its cards), the
   * history taken over and the media left out, with links on. */
  function showDone(result) {
    const made = result.stacks || [];
    const [stack] = made;
    const count = result.cardsCreated ?? stack?.cards ?? 0;
    const url = made.length === 1 ? `/app/stacks/${stack.id}` : '/app/stacks';
    for (const s of made) if (s.created) stacks.push({ id: s.id, name: s.name });
    render(done, html`
      <span class="success-icon" aria-hidden="true">${icon('check')}</span>
      <div>
        <h2 tabindex="-1">${t('imp.done', { count })}</h2>
        ${made.length === 1 ? html`<p class="muted">${t(stack.created ? 'imp.doneNew' : 'imp.doneExisting', { name: stack.name })}</p>` : ''}
        ${made.length > 1 ? html`
          <p class="muted">${t('imp.doneStacks', { count: made.length })}</p>
          <ul class="import-stacks">${made.map((s) => html`
            <li>
              <a href="/app/stacks/${s.id}" data-leave>${icon('cards')}<span>${deckName(s.name)}</span></a>
              <span class="small muted">${t('imp.stackCards', { count: s.cards })}</span>
            </li>`)}
          </ul>` : ''}
        ${result.reviewsImported || result.mediaSkipped || result.imagesImported ? html`
          <ul class="import-notes">
            ${result.reviewsImported ? html`<li>${icon('clock')}<span>${t('imp.doneReviews', { count: result.reviewsImported })}</span></li>` : ''}
            ${result.imagesImported ? html`<li>${icon('image')}<span>${t('imp.doneImages', { count: result.imagesImported })}</span></li>` : ''}
            ${result.mediaSkipped ? html`<li>${icon('image')}<span>${t('imp.doneMedia', { count: result.mediaSkipped })}</span></li>` : ''}
          </ul>` : ''}
        <div class="form-actions">
          <a class="btn btn-primary" href="${url}" id="to-stack" data-leave>${icon('cards')}<span>${t(made.length > 1 ? 'imp.toStacks' : 'imp.toStack')}</span></a>
          <button type="button" class="btn btn-secondary" id="again">${icon('upload')}<span>${t('imp.again')}</span></button>
        </div>
      </div>`);
    for (const el of [$('#file-panel'), tips, previewPanel, target, progress]) el.hidden = true;
    done.hidden = false;
    // Done: the stack page replaces this one (or Back returns to it), so Back never shows the import again.
    for (const link of done.querySelectorAll('a[data-leave]')) {
      link.addEventListener('click', (event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        leaveTo(link.getAttribute('href'));
      });
    }
    done.querySelector('#again').addEventListener('click', () => { fillStacks(); restart(); });
    done.querySelector('h2').focus();
  }

  target.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (running || previewing || !preview) return;
    importError.hidden = true;
    if (!importable()) {
      render(importError, html`<p>${t('imp.blocked')}</p>`);
      importError.hidden = false;
      ($('#problems') || importError).focus();
      return;
    }
    const name = nameInput.value.trim();
    const where = choice();
    if (where === 'new' && (!name || Array.from(name).length > 200)) {
      fieldError(nameInput, t('imp.stackNameError'));
      nameInput.focus();
      return;
    }
    // An Anki package or a backup goes by its decks unless one stack is named; a CSV/TSV file as the
    // preview read it.
    const chosen = {
      ...(hasDecks() ? {} : { separator: preview.separator, hasHeader: preview.hasHeader, columns: preview.columns }),
      ...(where === 'existing' ? { stackId: stackSelect.value } : where === 'new' ? { stackName: name } : {}),
    };
    const controller = new AbortController();
    running = controller;
    setBusy(submit, true);
    const frozen = [$('#file-panel'), previewPanel, target]; // nothing changes while the job runs
    for (const el of frozen) el.inert = true;
    progress.hidden = false;
    progressText.textContent = t('imp.stage.sending');
    progress.focus();
    let outcome;
    try {
      outcome = await importFile(file, chosen, { signal: controller.signal, onProgress: showJob });
    } catch (error) {
      outcome = error;
    }
    if (running === controller) running = null;
    setBusy(submit, false);
    for (const el of frozen) el.inert = false;
    if (!(outcome instanceof Error)) { showDone(outcome); return; }
    if (outcome.name === 'AbortError' || outcome.status === 401) return;
    progress.hidden = true;
    showFailure(outcome instanceof ImportFailedError
      ? problemText(outcome.problem, { backup: isBackup() }) : await refusal(outcome, 'imp.importError'));
  });

  return () => {
    previewing?.abort();
    running?.abort();
  };
}

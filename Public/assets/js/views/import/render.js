// The import screen's render units (views/import.js): each a template of the state it is given, no
// listeners and no state of its own. The screen (import/screen.js) puts them into the page.

import { html } from '../../html.js';
import { formatNumber, t } from '../../i18n.js';
import { fileDropzone } from '../../dropzone.js';
import { problemText } from '../../import-text.js';
import { defineIcons, icon, stackBreadcrumb, stacksBreadcrumb } from '../../ui.js';
import { ROLES, SEPARATORS } from './state.js';

defineIcons({ image: 'M5 4h14a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V5a1 1 0 0 1 1-1Zm-1 12 5-5 5 5 2-2 4 4M15 9.5a1.5 1.5 0 1 0 0-.01' });

/** An Anki deck's path ("Biologie::Zellen") that may break after each "::" on a narrow screen (a
 * backup's stack names alike). */
const deckName = (name) => html`${String(name).split('::').map((part, i) => html`${i ? html`::<wbr>` : ''}${part}`)}`;

const separatorName = (sep) => (SEPARATORS[sep] ? t(`imp.sep.${SEPARATORS[sep]}`) : t('imp.sep.other', { char: sep }));

const shorten = (text, max = 24) => {
  const chars = Array.from(String(text ?? '').replace(/\s+/g, ' ').trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
};

const ACCEPT = '.apkg,.json,.zip,.csv,.tsv,.txt,application/json,text/csv,text/tab-separated-values,text/plain';

/** The page: the file panel, tips, the preview, the target form, progress and result (hidden). */
export function pageTemplate(from) {
  return html`
    <section class="page page-narrow import-page">
      ${from ? stackBreadcrumb(from, `/app/stacks/${from.id}`, t('imp.crumb')) : stacksBreadcrumb(t('imp.crumb'))}
      <div class="panel" id="file-panel">
        <h1>${t('imp.title')}</h1>
        <p class="muted">${t('imp.lead')}</p>
        ${fileDropzone({ id: 'import-file', label: t('imp.file'), title: t('imp.choose'), help: t('imp.fileHelp'), accept: ACCEPT })}
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

      ${targetForm()}

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
    </section>`;
}

const targetForm = () => html`
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
  </form>`;

/** The options of the existing stacks (the one the page came from selected). */
export const stackOptions = (state) => html`${state.stacks.map((s) => html`
  <option value="${s.id}" ${s.id === state.from?.id ? 'selected' : ''}>${s.name}</option>`)}`;

/** A target's title and help in the choices. */
function targetText(state, value) {
  const decks = state.preview?.decks || [];
  if (value === 'decks' && state.isBackup) {
    return [t('imp.targetCopies', { count: decks.length }), !decks.length ? t('imp.targetCopiesAny')
      : t('imp.targetCopiesHelp', { count: decks.length, name: decks[0].name })];
  }
  if (value === 'decks') {
    return [t('imp.targetDecks'), !decks.length ? t('imp.targetDecksAny')
      : decks.length === 1 ? t('imp.targetDecksOne', { name: decks[0].name }) : t('imp.targetDecksHelp', { count: decks.length })];
  }
  if (value === 'new') {
    if (state.isBackup) return [t('imp.targetRename'), t('imp.targetRenameHelp')];
    return state.isAnki ? [t('imp.targetOne'), t('imp.targetOneHelp')] : [t('imp.targetNew'), t('imp.targetNewHelp')];
  }
  return [t('imp.targetExisting'), t(state.isAnki ? 'imp.targetExistingAllHelp' : 'imp.targetExistingHelp')];
}

/** The choices of where the cards go. */
export function choicesTemplate(state) {
  const chosen = state.choice();
  return html`
    <legend class="visually-hidden">${t('imp.target')}</legend>
    ${state.targets().map((value) => {
      const [title, help] = targetText(state, value);
      return html`
        <label class="choice">
          <input type="radio" name="target" value="${value}" ${chosen === value ? 'checked' : ''}>
          <span><strong>${title}</strong><span class="small muted">${help}</span></span>
        </label>`;
    })}`;
}

/** The file's problem under the dropzone (`retry`: with "Erneut versuchen"). */
export const fileErrorTemplate = (message, retry) => html`<span>${message}</span>${retry ? html`
  <button type="button" class="btn btn-secondary" data-retry>${t('retry')}</button>` : ''}`;

/** The preview of the file in `state`, with its verdict. */
export const previewTemplate = (state) => html`
  <p class="small muted" id="preview-state" role="status"></p>
  ${state.hasDecks ? packagePreview(state) : delimitedPreview(state)}
  ${verdict(state)}`;

/** The verdict: the cards to import, or the problems that stop it. */
function verdict(state) {
  const { cards, rejected, problems } = state.preview;
  if (rejected || problems.length) {
    const more = rejected - problems.length;
    const help = state.isBackup ? 'imp.backupProblemsHelp' : !state.isAnki ? 'imp.problemsHelp'
      : problems.some((p) => p.note != null) ? 'imp.ankiProblemsHelp' : 'imp.packageProblemsHelp';
    return html`
      <div class="alert alert-error import-problems" id="problems" tabindex="-1">
        <p><strong>${state.verdictText()}</strong></p>
        <ul>${problems.map((p) => html`<li>${problemText(p, { backup: state.isBackup })}</li>`)}</ul>
        ${more > 0 ? html`<p>${t('imp.moreProblems', { count: more })}</p>` : ''}
        <p class="small">${t(help)}</p>
      </div>`;
  }
  if (!cards) return html`<p class="alert alert-info" id="problems" tabindex="-1">${state.verdictText()}</p>`;
  return html`<p class="import-count">${icon('check')}<span>${state.verdictText()}</span></p>`;
}

/** An Anki package or a backup: what it holds (decks or stacks, notes, cards, history, media) and
 * its first cards. */
function packagePreview(state) {
  const p = state.preview;
  const w = state.words;
  return html`
    <dl class="import-facts" aria-label="${t(state.isBackup ? 'imp.backupFacts' : 'imp.packageFacts')}">
      <div><dt>${t('imp.format')}</dt><dd>${t(w.format)}</dd></div>
      ${p.notes != null ? html`<div><dt>${t('imp.notes')}</dt><dd>${formatNumber(p.notes)}</dd></div>` : ''}
      ${state.isBackup && p.decks ? html`<div><dt>${t('imp.stacks')}</dt><dd>${formatNumber(p.decks.length)}</dd></div>` : ''}
      ${p.decks ? html`<div><dt>${t('imp.cards')}</dt><dd>${formatNumber(p.cards)}</dd></div>` : ''}
      ${p.reviews != null ? html`<div><dt>${t('imp.reviews')}</dt><dd>${formatNumber(p.reviews)}</dd></div>` : ''}
    </dl>
    ${deckTable(p.decks || [], w)}
    ${p.decks ? html`
      <ul class="import-notes">
        <li>${icon('clock')}<span>${p.reviews ? t(w.history, { count: p.reviews }) : t(w.noHistory)}</span></li>
        ${p.media ? html`<li>${icon('image')}<span>${t('imp.media', { count: p.media })}</span></li>` : ''}
      </ul>` : ''}
    ${firstCardsTable(p, w)}`;
}

function deckTable(decks, w) {
  if (!decks.length) return '';
  return html`
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
    </div>`;
}

function firstCardsTable(p, w) {
  if (!p.rows.length) return '';
  const cell = (text) => html`<td><span class="qa" title="${text}">${text}</span></td>`;
  return html`
    <div class="import-table-wrap">
      <table class="import-table import-qa">
        <caption>${t(p.rows.length < p.cards ? w.cardsFirst : w.cardsAll, { count: p.rows.length })}</caption>
        <thead><tr><th scope="col">${t('imp.role.front')}</th><th scope="col">${t('imp.role.back')}</th></tr></thead>
        <tbody>${p.rows.map((row) => html`<tr>${cell(row[0] ?? '')}${cell(row[1] ?? '')}</tr>`)}</tbody>
      </table>
    </div>`;
}

/** A CSV/TSV file: how it was read, the separator, header and mapping, and its first rows. */
function delimitedPreview(state) {
  const p = state.preview;
  return html`
    <dl class="import-facts" aria-label="${t('imp.read')}">
      <div><dt>${t('imp.encoding')}</dt><dd>${p.encoding ? t(`imp.enc.${p.encoding}`) : '–'}</dd></div>
      <div><dt>${t('imp.separator')}</dt><dd>${p.separator ? separatorName(p.separator) : '–'}</dd></div>
      <div><dt>${t('imp.headerRow')}</dt><dd>${t(p.hasHeader ? 'imp.yes' : 'imp.no')}</dd></div>
    </dl>
    ${readOptions(state)}
    ${p.columnCount > 0 ? html`${mappingFields(p)}${rowsTable(p)}` : ''}`;
}

/** The separator (automatic, named or custom) and the header row. */
function readOptions({ preview: p, separatorChoice: choice, options }) {
  const option = (value, label) => html`<option value="${value}" ${choice === value ? 'selected' : ''}>${label}</option>`;
  return html`
    <div class="import-options">
      <div class="field">
        <label for="separator">${t('imp.separator')}</label>
        <select id="separator">
          ${option('', p.separator && !options.separator ? t('imp.sep.autoFound', { name: separatorName(p.separator) }) : t('imp.sep.auto'))}
          ${Object.keys(SEPARATORS).map((sep) => option(sep, separatorName(sep)))}
          ${option('custom', t('imp.sep.custom'))}
        </select>
      </div>
      <div class="field" ${choice === 'custom' ? '' : 'hidden'}>
        <label for="separator-custom">${t('imp.customSep')}</label>
        <input id="separator-custom" type="text" maxlength="1" autocomplete="off" spellcheck="false"
          value="${choice === 'custom' ? options.separator ?? '' : ''}">
      </div>
      <label class="check-row">
        <input type="checkbox" id="has-header" ${p.hasHeader ? 'checked' : ''}>
        <span>${t('imp.header')}</span>
      </label>
    </div>`;
}

/** "Antwort (Spalte 2)" with a header, else "Spalte 2: Hund" (the first row's value). */
function columnLabel(p, i) {
  const n = i + 1;
  if (p.header?.[i]) return t('imp.columnNamed', { name: shorten(p.header[i]), n });
  const sample = p.rows[0]?.[i];
  return sample ? `${t('imp.column', { n })}: ${shorten(sample)}` : t('imp.column', { n });
}

/** Which column each role takes. */
function mappingFields(p) {
  const cols = p.columns || {};
  const indexes = [...Array(p.columnCount).keys()];
  return html`
    <fieldset class="import-mapping">
      <legend>${t('imp.mapping')}</legend>
      <div class="mapping-grid">
        ${ROLES.map((role) => html`
          <div class="field">
            <label for="map-${role}">${t(`imp.role.${role}`)}</label>
            <select id="map-${role}" data-role="${role}">
              ${role === 'hint' || role === 'tags' ? html`<option value="" ${cols[role] == null ? 'selected' : ''}>${t('imp.none')}</option>` : ''}
              ${indexes.map((i) => html`<option value="${i}" ${cols[role] === i ? 'selected' : ''}>${columnLabel(p, i)}</option>`)}
            </select>
          </div>`)}
      </div>
    </fieldset>`;
}

/** The file's first rows, the columns marked with their roles. */
function rowsTable(p) {
  const cols = p.columns || {};
  const indexes = [...Array(p.columnCount).keys()];
  const roleOf = (i) => ROLES.find((role) => cols[role] === i);
  const total = p.cards + p.rejected;
  return html`
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
    </div>`;
}

/** Why the import failed, with help for the kind of file. */
export const failureTemplate = (state, message) => html`<p><strong>${t('imp.failedTitle')}</strong></p><p>${message}</p>
  <p class="small">${t(state.hasDecks ? state.words.failedHelp : 'imp.failedHelp')}</p>`;

/** The result: the stack (or, from an Anki package or a backup, each stack with its cards), the
 * history taken over and the media left out, with links on. */
export function doneTemplate(result) {
  const made = result.stacks || [];
  const [stack] = made;
  const count = result.cardsCreated ?? stack?.cards ?? 0;
  const url = made.length === 1 ? `/app/stacks/${stack.id}` : '/app/stacks';
  return html`
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
      ${doneNotes(result)}
      <div class="form-actions">
        <a class="btn btn-primary" href="${url}" id="to-stack" data-leave>${icon('cards')}<span>${t(made.length > 1 ? 'imp.toStacks' : 'imp.toStack')}</span></a>
        <button type="button" class="btn btn-secondary" id="again">${icon('upload')}<span>${t('imp.again')}</span></button>
      </div>
    </div>`;
}

function doneNotes(result) {
  if (!(result.reviewsImported || result.mediaSkipped || result.imagesImported)) return '';
  const note = (count, ic, key) => (count ? html`<li>${icon(ic)}<span>${t(key, { count })}</span></li>` : '');
  return html`
    <ul class="import-notes">
      ${note(result.reviewsImported, 'clock', 'imp.doneReviews')}
      ${note(result.imagesImported, 'image', 'imp.doneImages')}
      ${note(result.mediaSkipped, 'image', 'imp.doneMedia')}
    </ul>`;
}

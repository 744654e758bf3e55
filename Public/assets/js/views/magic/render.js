// The render units of "Automatisch erstellen" (views/magic.js): templates of what the page is
// given, no listeners and no state. The screen (magic/screen.js) puts them into the page.

import { currentLanguage, t } from '../../i18n.js';
import { html } from '../../html.js';
import { backButton, icon, stackBreadcrumb } from '../../ui.js';
import { sourcePanel, sourceToggle } from './source-markup.js';

const SOURCES = [['pdf', 'file'], ['photo', 'camera'], ['text', 'text'], ['topic', 'bulb']];

/** The image types the server reads (its text recognition takes PNG and JPEG only). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg'];

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent || '');

/**
 * The page: the sources form, the progress, the error, the empty state and the review list.
 * `gen`: {stack, stackUrl, info, withModel, model, size, batch} (magic.js).
 */
export const pageTemplate = (gen) => html`
  <section class="page page-narrow magic-page">
    ${stackBreadcrumb(gen.stack, gen.stackUrl, t('magic.crumb'))}
    <div class="panel">
      <h1>${t('magic.title')}</h1>
      <p class="muted" id="magic-lead">${gen.withModel && gen.model ? t('magic.leadModel', { model: gen.model }) : t('magic.lead')}</p>
      <div class="alert alert-error" role="alert" id="form-error" hidden></div>
      ${sourceForm(gen)}
    </div>
    ${progressPanel()}
    <div class="panel" id="gen-error" hidden></div>
    <div class="panel drafts-empty" id="drafts-empty" hidden>
      <h2 id="drafts-empty-title" tabindex="-1">${t('magic.noDrafts')}</h2>
      <p class="muted">${t('magic.noDraftsHelp')}</p>
      <div><button type="button" class="btn btn-secondary" id="other-source">${t('magic.otherSource')}</button></div>
    </div>
    ${draftsPanel(gen.batch)}
    <p class="visually-hidden" id="announce" role="status" aria-live="polite"></p>
  </section>`;

/** A file source's dropzone (`pdf` or `photo`). */
const fileField = (key, { ic, label, title, help, accept, capture }) => html`
  <div class="field" data-source="${key}" ${key === 'pdf' ? '' : 'hidden'}>
    <span class="label" id="${key}-label">${label}</span>
    <label class="dropzone" for="${key}">
      ${icon(ic)}
      <span class="dropzone-title">${title}</span>
      <span class="small muted" id="${key}-help">${help}</span>
      <span class="small dropzone-file" data-file></span>
    </label>
    <input class="visually-hidden" id="${key}" name="${key}" type="file" accept="${accept}" ${capture ? html`capture="environment"` : ''}
      aria-required="true" aria-labelledby="${key}-label" aria-describedby="${key}-help" data-describedby="${key}-help">
  </div>`;

function sourceForm(gen) {
  const { size } = gen;
  return html`
    <form novalidate id="magic-form" class="stack-form">
      <fieldset class="segmented">
        <legend>${t('magic.source')}</legend>
        ${SOURCES.map(([key, ic], i) => html`
          <label class="segment">
            <input type="radio" name="source" value="${key}" ${i === 0 ? 'checked' : ''}>
            <span>${icon(ic)}${t(`magic.src.${key}`)}</span>
          </label>`)}
      </fieldset>
      ${fileField('pdf', { ic: 'file', label: t('magic.file'), title: t('magic.upload'), help: t('magic.pdfOnly', { size }), accept: 'application/pdf,.pdf' })}
      ${fileField('photo', {
        ic: 'camera', label: t('magic.photo'), title: t('magic.photoUpload'), help: t('magic.photoHelp', { size }),
        accept: IMAGE_TYPES.join(','), capture: true,
      })}
      <div class="field" data-source="text" hidden>
        <label for="text">${t('magic.text')}</label>
        <textarea id="text" name="text" rows="8" placeholder="${t('magic.textPlaceholder')}" aria-required="true"
          aria-describedby="text-help" data-describedby="text-help"></textarea>
        <p class="help" id="text-help">${t('magic.textHelp')}</p>
      </div>
      <div class="field" data-source="topic" hidden>${gen.info.topics ? topicField(gen) : topicOff()}</div>
      ${gen.withModel ? html`
        <div class="field" data-instructions>
          <label for="instructions">${t('magic.instructions')}</label>
          <textarea id="instructions" name="instructions" rows="3" placeholder="${t('magic.instructionsPlaceholder')}"></textarea>
        </div>` : ''}
      <div class="form-actions">
        ${backButton(gen.stackUrl)}
        <button class="btn btn-magic" type="submit" id="submit">${icon('sparkles')}<span>${t('magic.submit')}</span></button>
      </div>
    </form>`;
}

const topicField = ({ model, batch }) => html`
  <label for="topic">${t('magic.topic')}</label>
  <input id="topic" name="topic" type="text" maxlength="200" placeholder="${t('magic.topicPlaceholder')}"
    autocomplete="off" aria-required="true" aria-describedby="topic-help" data-describedby="topic-help">
  <p class="help" id="topic-help">${model ? t('magic.topicHelp', { model, count: batch }) : t('magic.topicHelpAny', { count: batch })}</p>`;

/** Topics need a language model: without one, the way to the other sources. */
const topicOff = () => html`
  <div class="topic-off" id="topic-off">
    <span class="topic-off-icon" aria-hidden="true">${icon('bulb')}</span>
    <p>${t('magic.topicOff')}</p>
    <div class="actions">
      <button type="button" class="btn btn-secondary" data-switch="text">${icon('text')}<span>${t('magic.toText')}</span></button>
      <button type="button" class="btn btn-secondary" data-switch="pdf">${icon('file')}<span>${t('magic.toPdf')}</span></button>
    </div>
  </div>`;

const progressPanel = () => html`
  <div class="panel progress-panel" id="progress-area" hidden>
    <div class="progress-line">
      <span class="spinner" aria-hidden="true"></span>
      <span id="progress-text"></span>
    </div>
    <div class="progress" id="progress-track" role="progressbar" aria-label="${t('magic.progressLabel')}">
      <span class="progress-bar progress-indeterminate" id="progress-bar"></span>
    </div>
    <p class="small muted" id="progress-found" hidden></p>
    <div><button type="button" class="btn btn-secondary" id="cancel">${t('magic.cancel')}</button></div>
  </div>
  <p class="visually-hidden" id="progress-live" role="status" aria-live="polite" aria-atomic="true"></p>`;

const draftsPanel = (batch) => html`
  <section class="panel drafts-panel" id="drafts" aria-labelledby="drafts-title" hidden>
    <div>
      <h2 id="drafts-title" tabindex="-1">${t('magic.draftsTitle')}</h2>
      <p class="muted">${t('magic.draftsLead')}</p>
    </div>
    <p class="gen-summary" id="gen-summary" hidden></p>
    <p class="gen-gaps" id="gen-gaps" hidden></p>
    <div class="alert alert-info gen-warnings" id="gen-warnings" hidden>
      <p class="small" id="gen-warnings-title">${t('magic.warnings')}</p>
      <ul aria-labelledby="gen-warnings-title" ${currentLanguage() === 'de' ? '' : html`lang="de"`}></ul>
    </div>
    <div class="review" id="review">
      ${sourceToggle()}
      <div class="review-drafts" id="review-drafts">
        <div class="draft-tools">
          <button type="button" class="btn btn-secondary btn-sm" id="select-all">${t('magic.selectAll')}</button>
          <button type="button" class="btn btn-secondary btn-sm" id="select-none">${t('magic.selectNone')}</button>
          <button type="button" class="btn btn-secondary btn-sm" id="drop-duplicates" hidden></button>
        </div>
        <ol class="draft-list" id="draft-list"></ol>
        <div class="alert alert-error" role="alert" id="accept-error" hidden></div>
        <p class="help hide-touch">${isMac() ? t('magic.keyHintMac') : t('magic.keyHint')}</p>
        <div class="form-actions">
          <button type="button" class="btn btn-secondary" id="deepen" hidden>${icon('plus')}<span>${t('magic.deepen', { count: batch })}</span></button>
          <button type="button" class="btn btn-primary" id="accept" aria-keyshortcuts="${isMac() ? 'Meta+Enter' : 'Control+Enter'}"></button>
        </div>
      </div>
      ${sourcePanel()}
    </div>
  </section>`;

/** "Zu 2 Abschnitten wurden keine Karten erstellt: A, B." (`titles`: the job result's
 * `sectionsWithoutCards`; the untitled section is ''). */
export const gapsText = (titles) => t('magic.gaps', {
  count: titles.length, names: titles.map((title) => title || t('magic.source.untitled')).join(', '),
});

/** The sentence with the mark of text without a card. */
export const gapsMarkup = (titles) => html`${icon('gap')}<span>${gapsText(titles)}</span>`;

/** The warnings of a generation (German from the server, so marked as such in English). */
export const warningItems = (list) => html`${list.map((w) => html`<li>${w}</li>`)}`;

/** "12 Vorschläge aus 3 Seiten, davon 2 schon im Stapel." (pages only for a PDF: `isPdf`). */
export function summaryText(result, count, more, isPdf) {
  const drafts = Number.isInteger(result.drafts) ? result.drafts : count;
  let text = more ? t('magic.summary.more', { count: drafts }) : t('magic.summary.drafts', { count: drafts });
  if (isPdf && Number(result.pages) > 0) text += t('magic.summary.pages', { count: result.pages });
  if (Number(result.duplicates) > 0) text += t('magic.summary.duplicates', { count: result.duplicates });
  return `${text}.`;
}

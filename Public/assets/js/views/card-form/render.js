// The card form's render units (views/card-form.js): templates of the card being written, no
// listeners and no state. `form`: {stack, card (null for a new one), editing, stackUrl}.

import { html } from '../../html.js';
import { formatDateTime, t } from '../../i18n.js';
import { backButton, icon, stackBreadcrumb } from '../../ui.js';

/** The card kinds (CardKind), in the order the form offers them. */
const KINDS = ['basic', 'reversed', 'cloze', 'trueFalse', 'multipleChoice', 'fillBlank'];

export const pageTemplate = (form) => html`
  <section class="page page-narrow">
    ${stackBreadcrumb(form.stack, form.stackUrl)}
    ${savedPanel(form.stackUrl)}
    <div class="panel" id="card-panel">
      <div class="panel-title-row">
        <h1>${t(form.editing ? 'card.editTitle' : 'card.createTitle')}</h1>
        ${form.editing ? html`<a class="btn btn-ghost btn-sm" href="${form.stackUrl}/cards/new">${icon('plus')}<span>${t('card.new')}</span></a>` : ''}
      </div>
      <p class="muted">${t('card.lead')}</p>
      ${form.editing ? html`<p class="small muted">${icon('clock')} ${t('card.due', { date: formatDateTime(form.card.dueAt) })}</p>` : ''}
      <div class="alert alert-error" role="alert" id="form-error" hidden></div>
      <form novalidate id="card-form" class="stack-form">
        ${sideFields(form)}
        ${extraFields(form)}
        ${imageTools()}
        ${previewSection()}
        <div class="form-actions">
          ${form.editing ? html`<button type="button" class="btn btn-danger-ghost" id="delete-card">${icon('trash')}<span>${t('delete')}</span></button>` : ''}
          <span class="spacer"></span>
          ${backButton(form.stackUrl)}
          <button class="btn btn-primary" type="submit">${t('save')}</button>
        </div>
      </form>
    </div>
  </section>`;

const savedPanel = (stackUrl) => html`
  <div class="panel success-panel" id="saved" role="status" hidden>
    <span class="success-icon" aria-hidden="true">${icon('check')}</span>
    <div>
      <h2>${t('card.savedTitle')}</h2>
      <p class="muted">${t('card.savedText')}</p>
      <div class="form-actions">
        <a class="btn btn-secondary" href="${stackUrl}">${t('card.viewStack')}</a>
        <a class="btn btn-primary" href="${stackUrl}/cards/new" id="another">${icon('plus')}<span>${t('card.new')}</span></a>
      </div>
    </div>
  </div>`;

/** The kind, the question, true/false and the answer. */
const sideFields = ({ card, editing }) => html`
  <div class="field">
    <label for="kind">${t('card.kind')}</label>
    <select id="kind" name="kind" ${editing ? 'disabled' : ''} aria-describedby="kind-help" data-describedby="kind-help">
      ${KINDS.map((k) => html`<option value="${k}" ${k === (card?.kind ?? 'basic') ? 'selected' : ''}>${t(`card.kindName.${k}`)}</option>`)}
    </select>
    <p class="help" id="kind-help"></p>
  </div>
  <div class="field">
    <label for="question" id="question-label">${t('card.question')}</label>
    <input id="question" name="question" type="text" maxlength="10000" required autocomplete="off" value="${card?.question ?? ''}"
      aria-describedby="question-help" data-describedby="question-help">
    <p class="help" id="question-help" hidden></p>
    <button type="button" class="btn btn-ghost btn-sm" id="make-gap" hidden aria-keyshortcuts="Control+Shift+C">${t('card.makeGap')}</button>
  </div>
  <fieldset class="field" id="truth" hidden>
    <legend>${t('card.truth')}</legend>
    <label class="check-row"><input type="radio" name="truth" value="true" ${card?.answer !== 'false' ? 'checked' : ''}> ${t('kind.true')}</label>
    <label class="check-row"><input type="radio" name="truth" value="false" ${card?.answer === 'false' ? 'checked' : ''}> ${t('kind.false')}</label>
  </fieldset>
  <div class="field" id="answer-field">
    <label for="answer" id="answer-label">${t('card.answer')}</label>
    <textarea id="answer" name="answer" rows="8" maxlength="20000" required
      aria-describedby="answer-help" data-describedby="answer-help">${card?.kind === 'trueFalse' ? '' : card?.answer ?? ''}</textarea>
    <p class="help" id="answer-help">${t('card.answerHelp')}</p>
  </div>`;

/** The wrong choices, the hint and the formatting. */
const extraFields = ({ card, stack }) => html`
  <div class="field" id="choices-field" hidden>
    <label for="choices">${t('card.choices')}</label>
    <textarea id="choices" name="choices" rows="4" aria-describedby="choices-help" data-describedby="choices-help">${(card?.choices ?? []).join('\n')}</textarea>
    <p class="help" id="choices-help">${t('card.choicesHelp')}</p>
  </div>
  <div class="field">
    <label for="hint">${t('card.hint')}</label>
    <input id="hint" name="hint" type="text" maxlength="2000" autocomplete="off"
      aria-describedby="hint-help" data-describedby="hint-help" value="${card?.hint ?? ''}">
    <p class="help" id="hint-help">${t('card.hintHelp')}${stack.hintsEnabled === false ? html` <span data-hints-off>${t('card.hintsOff')}</span>` : ''}</p>
  </div>
  <div class="field">
    <label class="check-row"><input type="checkbox" id="rich" name="rich" ${card?.format === 'markdown' ? 'checked' : ''}
      aria-describedby="rich-help" data-describedby="rich-help"> ${t('card.rich')}</label>
    <p class="help" id="rich-help">${t('card.richHelp')}</p>
  </div>`;

const imageTools = () => html`
  <div class="field image-tools" id="image-tools">
    <div class="image-buttons">
      <button type="button" class="btn btn-secondary btn-sm" id="insert-image" aria-describedby="image-help">${icon('upload')}<span>${t('card.image.insert')}</span></button>
      <button type="button" class="btn btn-secondary btn-sm" id="take-photo" aria-describedby="image-help" hidden>${icon('camera')}<span>${t('card.image.camera')}</span></button>
      <input type="file" id="image-file" accept="image/*" hidden tabindex="-1">
      <input type="file" id="photo-file" accept="image/*" capture="environment" hidden tabindex="-1">
    </div>
    <label for="image-alt" class="small">${t('card.image.alt')}</label>
    <input id="image-alt" type="text" maxlength="300" autocomplete="off" aria-describedby="image-alt-help">
    <p class="help" id="image-alt-help">${t('card.image.altHelp')}</p>
    <p class="help" id="image-help">${t('card.image.help')}</p>
    <p class="help image-status" id="image-status" role="status" aria-live="polite"></p>
    <div class="alert alert-error" role="alert" id="image-error" hidden></div>
  </div>`;

const previewSection = () => html`
  <section class="card-preview" id="preview" aria-labelledby="preview-title" hidden>
    <h2 class="small" id="preview-title">${t('card.preview')}</h2>
    <p class="help" id="preview-status" aria-live="polite"></p>
    <div class="preview-face"><span class="preview-label">${t('card.question').replace(/\s*\*$/, '')}</span><div id="preview-question"></div></div>
    <div class="preview-face"><span class="preview-label">${t('card.answer').replace(/\s*\*$/, '')}</span><div id="preview-answer"></div></div>
  </section>`;

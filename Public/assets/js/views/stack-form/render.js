// The stack form's render units (views/stack-form.js): templates of the stack being written, no
// listeners and no state. `form`: {stack (null for a new one), editing, back, settings, scheduler}.

import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { STACK_ICONS, backButton, icon, stackBreadcrumb, stacksBreadcrumb } from '../../ui.js';

/** The API's limit of a stack's description. */
const DESCRIPTION_MAX = 500;

/** The retention as a whole percentage (0.9 → 90). */
export const percent = (retention) => Math.round(retention * 100);

/** A new stack's name suggested by the link that opened the form (`?name=`, the home screen's topics). */
const suggestedName = () => (new URLSearchParams(location.search).get('name') ?? '').trim().slice(0, 200);

export const pageTemplate = (form) => html`
  <section class="page page-narrow">
    ${form.editing ? stackBreadcrumb(form.stack, form.back, t('edit')) : stacksBreadcrumb(t('stack.createCrumb'))}
    <div class="panel">
      <h1>${t(form.editing ? 'stack.editTitle' : 'stack.createTitle')}</h1>
      <p class="muted">${t(form.editing ? 'stack.editLead' : 'stack.createLead')}</p>
      <div class="alert alert-error" role="alert" id="form-error" hidden></div>
      <form novalidate id="stack-form" class="stack-form">
        ${libraryFields(form.stack)}
        <color-picker name="color" value="${form.stack?.color ?? '#059669'}" label="${t('stack.color')}"></color-picker>
        ${methodFields(form)}
        ${hintsSwitch(form.stack)}
        <div class="preview" aria-hidden="true">
          <span class="muted small">${t('stack.preview')}</span>
          <span class="stack-card stack-card-static" id="preview" data-color="${form.stack?.color ?? '#059669'}">
            <span class="badge" id="preview-badge"></span>
            <span class="stack-card-name" id="preview-name"></span>
          </span>
        </div>
        <div class="form-actions">
          ${backButton(form.back)}
          <button class="btn btn-primary" type="submit">${t('save')}</button>
        </div>
      </form>
    </div>
  </section>`;

/** The name, the description and the icon (what the library shows of a stack). */
const libraryFields = (stack) => html`
  <div class="field">
    <label for="stack-name">${t('stack.name')}</label>
    <input id="stack-name" name="name" type="text" maxlength="200" required autocomplete="off"
      placeholder="${t('stack.namePlaceholder')}" value="${stack?.name ?? suggestedName()}">
  </div>
  <div class="field">
    <label for="stack-description">${t('stack.description')}</label>
    <textarea id="stack-description" name="description" rows="2" maxlength="${DESCRIPTION_MAX}"
      placeholder="${t('stack.descriptionPlaceholder')}" aria-describedby="stack-description-help"
      data-describedby="stack-description-help">${stack?.description ?? ''}</textarea>
    <p class="help" id="stack-description-help">${t('stack.descriptionHelp')}</p>
  </div>
  <fieldset class="icon-picker">
    <legend>${t('stack.icon')}</legend>
    <div class="icon-row">
      ${[null, ...STACK_ICONS].map((key) => html`
        <label class="icon-option" title="${t(`stack.iconName.${key ?? 'none'}`)}">
          <input type="radio" name="icon" value="${key ?? ''}" ${(stack?.icon ?? null) === key ? 'checked' : ''}>
          <span class="icon-face" aria-hidden="true">${icon(key ?? 'cards')}</span>
          <span class="visually-hidden">${t(`stack.iconName.${key ?? 'none'}`)}</span>
        </label>`)}
    </div>
  </fieldset>`;

/** A number field of the FSRS settings. */
const numberField = ({ id, name, label, help, min, max, value }) => html`
  <div class="field">
    <label for="${id}">${label}</label>
    <input id="${id}" name="${name}" type="number" inputmode="numeric" min="${min}" max="${max}" step="1"
      value="${value}" aria-describedby="${id}-help" data-describedby="${id}-help">
    <p class="help" id="${id}-help">${help}</p>
  </div>`;

/** The learning method with its settings (FSRS) or a sentence on what it does (the ladder). */
const methodFields = ({ scheduler, settings }) => html`
  <fieldset class="choice-group">
    <legend>${t('stack.scheduler')}</legend>
    ${['fsrs', 'ladder'].map((kind) => html`
      <label class="choice">
        <input type="radio" name="scheduler" value="${kind}" ${scheduler === kind ? 'checked' : ''}>
        <span><strong>${t(`stack.${kind}`)}</strong><span class="small muted">${t(`stack.${kind}Help`)}</span></span>
      </label>`)}
  </fieldset>
  <fieldset class="settings-group" id="fsrs-settings" ${scheduler === 'fsrs' ? '' : 'hidden'}>
    <legend>${t('stack.fsrsSettings')}</legend>
    <div class="field-row">
      ${numberField({
        id: 'stack-new', name: 'newCardsPerDay', label: t('stack.newPerDay'), help: t('stack.newPerDayHelp'),
        min: 0, max: 9999, value: settings.newCardsPerDay,
      })}
      ${numberField({
        id: 'stack-reviews', name: 'reviewsPerDay', label: t('stack.reviewsPerDay'), help: t('stack.reviewsPerDayHelp'),
        min: 1, max: 99999, value: settings.reviewsPerDay,
      })}
    </div>
    <div class="field">
      <label for="stack-retention">${t('stack.retention')}</label>
      <span class="input-suffix">
        <input id="stack-retention" name="retention" type="number" inputmode="numeric" min="70" max="99" step="1"
          value="${percent(settings.desiredRetention)}" aria-describedby="stack-retention-help" data-describedby="stack-retention-help">
        <span aria-hidden="true">%</span>
      </span>
      <p class="help" id="stack-retention-help">${t('stack.retentionHelp')}</p>
    </div>
    <label class="switch-row" for="stack-fsrs-steps">
      <span class="switch-text">
        <strong id="stack-fsrs-steps-label">${t('stack.fsrsSteps')}</strong>
        <span class="small muted" id="stack-fsrs-steps-help">${t('stack.fsrsStepsHelp')}</span>
      </span>
      <input id="stack-fsrs-steps" name="fsrsSteps" type="checkbox" role="switch" class="switch"
        aria-labelledby="stack-fsrs-steps-label" aria-describedby="stack-fsrs-steps-help" ${settings.fsrsSteps ? 'checked' : ''}>
    </label>
  </fieldset>
  <p class="alert alert-info" id="ladder-settings" ${scheduler === 'ladder' ? '' : 'hidden'}>${t('stack.ladderSettings')}</p>`;

const hintsSwitch = (stack) => html`
  <label class="switch-row" for="stack-hints">
    <span class="switch-text">
      <strong id="stack-hints-label">${t('stack.hints')}</strong>
      <span class="small muted" id="stack-hints-help">${t('stack.hintsHelp')}</span>
    </span>
    <input id="stack-hints" name="hintsEnabled" type="checkbox" role="switch" class="switch"
      aria-labelledby="stack-hints-label" aria-describedby="stack-hints-help" ${stack?.hintsEnabled === false ? '' : 'checked'}>
  </label>`;

/** The stack's icon in the preview. */
export const previewBadge = (key) => html`<span class="badge-icon">${icon(key ?? 'cards')}</span>`;

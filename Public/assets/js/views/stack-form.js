// Create a stack (/app/stacks/new) or change one (/app/stacks/{id}/edit): name, description, icon,
// colour, learning method with its settings and whether hints are shown. The daily limits and the target retention
// are FSRS settings (the server applies them to FSRS stacks only), so they show for FSRS alone; a
// ladder stack ("Klassisch") gets a sentence on what it does instead. Switching the method of a
// stack with cards asks first: the server recomputes every card's schedule from its history. A new
// stack opens once saved (replacing the form in the history), with "Karten hinzufügen" and
// "Automatisch erstellen" as its next steps.

import { html, readableOn, render } from '../html.js';
import { loadStrings, t } from '../i18n.js';
import { api } from '../api/client.js';
import { leaveTo } from '../router.js';
import { registerColorPicker } from '../../components/color-picker/color-picker.js';
import {
  STACK_ICONS, backButton, confirmDialog, errorText, errorView, fieldError, icon, loadStylesheet, loadingView,
  setBusy, stackBreadcrumb, stacksBreadcrumb, toast,
} from '../ui.js';

/** The API's limit of a stack's description. */
const DESCRIPTION_MAX = 500;

/** A new stack's settings (the server's defaults). */
const DEFAULTS = { desiredRetention: 0.9, newCardsPerDay: 20, reviewsPerDay: 200 };

/** The FSRS fields: form name → [min, max, error key] (the API's limits; retention in %). */
const RANGES = {
  newCardsPerDay: [0, 9999, 'stack.newPerDayError'],
  reviewsPerDay: [1, 99999, 'stack.reviewsPerDayError'],
  retention: [70, 99, 'stack.retentionError'],
};

/** The retention as a whole percentage (0.9 → 90). */
const percent = (retention) => Math.round(retention * 100);

/** The whole number in `input` within its range, or null (the field then shows why). */
function readWhole(input) {
  const [min, max, key] = RANGES[input.name];
  const raw = input.value.trim();
  const n = Number(raw);
  const ok = raw !== '' && Number.isInteger(n) && n >= min && n <= max;
  fieldError(input, ok ? '' : t(key));
  return ok ? n : null;
}

/** A new stack's name suggested by the link that opened the form (`?name=`, the home screen's topics). */
const suggestedName = () => (new URLSearchParams(location.search).get('name') ?? '').trim().slice(0, 200);

export async function mount(root, { params, navigate }) {
  // The colour picker's, description's and icon picker's styles and labels.
  await Promise.all([registerColorPicker(), loadStrings('more').catch(() => {}), loadStylesheet('/assets/css/more.css')]);
  const editing = Boolean(params.stackId);
  let stack = null;
  if (editing) {
    render(root, loadingView(t('loading')));
    try {
      stack = await api.stack(params.stackId);
    } catch (error) {
      if (error.status === 401) return;
      render(root, errorView(errorText(error)));
      root.querySelector('[data-retry]').addEventListener('click', () => mount(root, { params, navigate }));
      return;
    }
  }
  const back = editing ? `/app/stacks/${params.stackId}` : '/app/stacks';
  const settings = { ...DEFAULTS, ...(stack ? {
    desiredRetention: stack.desiredRetention, newCardsPerDay: stack.newCardsPerDay, reviewsPerDay: stack.reviewsPerDay,
  } : {}) };
  const scheduler = stack?.scheduler ?? 'fsrs';
  render(root, html`
    <section class="page page-narrow">
      ${editing ? stackBreadcrumb(stack, back, t('edit')) : stacksBreadcrumb(t('stack.createCrumb'))}
      <div class="panel">
        <h1>${t(editing ? 'stack.editTitle' : 'stack.createTitle')}</h1>
        <p class="muted">${t(editing ? 'stack.editLead' : 'stack.createLead')}</p>
        <div class="alert alert-error" role="alert" id="form-error" hidden></div>
        <form novalidate id="stack-form" class="stack-form">
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
          </fieldset>
          <color-picker name="color" value="${stack?.color ?? '#059669'}" label="${t('stack.color')}"></color-picker>
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
              <div class="field">
                <label for="stack-new">${t('stack.newPerDay')}</label>
                <input id="stack-new" name="newCardsPerDay" type="number" inputmode="numeric" min="0" max="9999" step="1"
                  value="${settings.newCardsPerDay}" aria-describedby="stack-new-help" data-describedby="stack-new-help">
                <p class="help" id="stack-new-help">${t('stack.newPerDayHelp')}</p>
              </div>
              <div class="field">
                <label for="stack-reviews">${t('stack.reviewsPerDay')}</label>
                <input id="stack-reviews" name="reviewsPerDay" type="number" inputmode="numeric" min="1" max="99999" step="1"
                  value="${settings.reviewsPerDay}" aria-describedby="stack-reviews-help" data-describedby="stack-reviews-help">
                <p class="help" id="stack-reviews-help">${t('stack.reviewsPerDayHelp')}</p>
              </div>
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
          </fieldset>
          <p class="alert alert-info" id="ladder-settings" ${scheduler === 'ladder' ? '' : 'hidden'}>${t('stack.ladderSettings')}</p>
          <label class="switch-row" for="stack-hints">
            <span class="switch-text">
              <strong id="stack-hints-label">${t('stack.hints')}</strong>
              <span class="small muted" id="stack-hints-help">${t('stack.hintsHelp')}</span>
            </span>
            <input id="stack-hints" name="hintsEnabled" type="checkbox" role="switch" class="switch"
              aria-labelledby="stack-hints-label" aria-describedby="stack-hints-help" ${stack?.hintsEnabled === false ? '' : 'checked'}>
          </label>
          <div class="preview" aria-hidden="true">
            <span class="muted small">${t('stack.preview')}</span>
            <span class="stack-card stack-card-static" id="preview" data-color="${stack?.color ?? '#059669'}">
              <span class="badge" id="preview-badge"></span>
              <span class="stack-card-name" id="preview-name"></span>
            </span>
          </div>
          <div class="form-actions">
            ${backButton(back)}
            <button class="btn btn-primary" type="submit">${t('save')}</button>
          </div>
        </form>
      </div>
    </section>`);

  const form = root.querySelector('#stack-form');
  const name = form.elements.name;
  const picker = form.querySelector('color-picker');
  const hints = form.elements.hintsEnabled;
  const preview = root.querySelector('#preview');
  const formError = root.querySelector('#form-error');
  const description = form.elements.description;
  const chosenIcon = () => form.elements.icon.value || null;
  const updatePreview = () => {
    const n = name.value.trim() || t('stack.namePlaceholder').replace(/^(z\. B\.|e\.g\.)\s*/, '');
    const badge = root.querySelector('#preview-badge');
    render(badge, html`<span class="badge-icon">${icon(chosenIcon() ?? 'cards')}</span>`);
    root.querySelector('#preview-name').textContent = n;
    preview.dataset.color = picker.value;
    preview.style.setProperty('--c', picker.value);
    preview.style.setProperty('--on-c', readableOn(picker.value));
  };
  name.addEventListener('input', updatePreview);
  form.addEventListener('color-change', updatePreview);
  form.addEventListener('change', (event) => { if (event.target.name === 'icon') updatePreview(); });
  updatePreview();

  const fsrsSettings = root.querySelector('#fsrs-settings');
  const showSettings = () => {
    const fsrs = form.elements.scheduler.value === 'fsrs';
    fsrsSettings.hidden = !fsrs;
    root.querySelector('#ladder-settings').hidden = fsrs;
  };
  form.addEventListener('change', (event) => { if (event.target.name === 'scheduler') showSettings(); });

  /** The FSRS settings to send (only changed ones when editing), or null when one is invalid. */
  function settingsToSend() {
    if (form.elements.scheduler.value !== 'fsrs') return {};
    const [newCards, reviews, retention] = ['newCardsPerDay', 'reviewsPerDay', 'retention']
      .map((n) => readWhole(form.elements[n]));
    if (newCards === null || reviews === null || retention === null) return null;
    const out = {};
    if (!editing || newCards !== stack.newCardsPerDay) out.newCardsPerDay = newCards;
    if (!editing || reviews !== stack.reviewsPerDay) out.reviewsPerDay = reviews;
    if (!editing || retention !== percent(stack.desiredRetention)) out.desiredRetention = retention / 100;
    return out;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.hidden = true;
    const value = name.value.trim();
    fieldError(name, value ? '' : t('stack.emptyName'));
    const chosen = settingsToSend();
    if (!value || !picker.value || !chosen) {
      formError.textContent = !value || !picker.value
        ? t(editing ? 'stack.updateError' : 'stack.createError')
        : t('stack.settingsError');
      formError.hidden = false;
      (value ? form.querySelector('[aria-invalid=true]') : name)?.focus();
      return;
    }
    const kind = form.elements.scheduler.value;
    if (editing && kind !== stack.scheduler && stack.cardCount > 0) {
      const ok = await confirmDialog({
        title: t('stack.switchTitle'),
        text: t('stack.switchText', { method: t(`stack.${kind}Name`) }),
        confirmLabel: t('stack.switchConfirm'),
        danger: false,
        warning: true,
      });
      if (!ok) {
        // Cancelled: the stack keeps its method (the other changes stay in the form).
        form.querySelector(`input[name=scheduler][value=${stack.scheduler}]`).checked = true;
        showSettings();
        return;
      }
    }
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      const library = {};
      const text = description.value.trim();
      if (!editing ? text : text !== (stack.description ?? '')) library.description = text;
      if (!editing ? chosenIcon() : chosenIcon() !== (stack.icon ?? null)) library.icon = chosenIcon();
      if (editing) {
        const changes = { name: value, color: picker.value, ...chosen, ...library };
        if (kind !== stack.scheduler) changes.scheduler = kind;
        if (hints.checked !== (stack.hintsEnabled !== false)) changes.hintsEnabled = hints.checked;
        await api.updateStack(params.stackId, changes);
        toast(t('stack.updated'));
        leaveTo(back);
      } else {
        const created = await api.createStack(value, picker.value, kind, hints.checked, { ...chosen, ...library });
        toast(t('stack.created', { name: created.name }));
        // Into the new, empty stack: its next steps are adding cards or having them made.
        navigate(`/app/stacks/${created.id}`, { replace: true });
      }
    } catch (error) {
      setBusy(button, false);
      if (error.status === 401) return;
      formError.textContent = error.status === 0 ? t('error.network') : t(editing ? 'stack.updateError' : 'stack.createError');
      formError.hidden = false;
    }
  });
  if (!editing) name.focus();
}

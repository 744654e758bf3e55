// Create a stack (/app/stacks/new) or change one (/app/stacks/{id}/edit): name, description, icon,
// colour, learning method with its settings and whether hints are shown. The daily limits and the target retention
// are FSRS settings (the server applies them to FSRS stacks only), so they show for FSRS alone; a
// ladder stack ("Klassisch") gets a sentence on what it does instead. Switching the method of a
// stack with cards asks first: the server recomputes every card's schedule from its history. A new
// stack opens once saved (replacing the form in the history), with "Karten hinzufügen" and
// "Automatisch erstellen" as its next steps.
// The screen in parts: stack-form/render.js (the page's templates) and the StackFormScreen below,
// which owns the form's logic.

import { readableOn, render } from '../html.js';
import { loadStrings, t } from '../i18n.js';
import { api } from '../api/client.js';
import { leaveTo } from '../router.js';
import { registerColorPicker } from '../../components/color-picker/color-picker.js';
import {
  confirmDialog, errorText, errorView, fieldError, loadStylesheet, loadingView, retryable, setBusy, toast,
} from '../ui.js';
import { pageTemplate, percent, previewBadge } from './stack-form/render.js';
import CORE from '../offline/core-constants.js';

/** A new stack's settings (the server's defaults). */
const DEFAULTS = { desiredRetention: 0.9, newCardsPerDay: 20, reviewsPerDay: 200, fsrsSteps: false };
/** The steps a stack gets back when FSRS no longer schedules its same-day reviews (Core's defaults). */
const DEFAULT_STEPS = { learning: CORE.fsrs.learningSteps, relearning: CORE.fsrs.relearningSteps };
/** Whether FSRS schedules the stack's same-day reviews: no learning and no relearning steps. */
const stepless = (stack) => !(stack.learningSteps ?? [60]).length && !(stack.relearningSteps ?? [600]).length;

/** The FSRS fields: form name → [min, max, error key] (the API's limits; retention in %). */
const RANGES = {
  newCardsPerDay: [0, 9999, 'stack.newPerDayError'],
  reviewsPerDay: [1, 99999, 'stack.reviewsPerDayError'],
  retention: [70, 99, 'stack.retentionError'],
};

/** The whole number in `input` within its range, or null (the field then shows why). */
function readWhole(input) {
  const [min, max, key] = RANGES[input.name];
  const raw = input.value.trim();
  const n = Number(raw);
  const ok = raw !== '' && Number.isInteger(n) && n >= min && n <= max;
  fieldError(input, ok ? '' : t(key));
  return ok ? n : null;
}

export const mount = retryable(mountPage);

async function mountPage(root, { params, navigate }, reload) {
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
      root.querySelector('[data-retry]').addEventListener('click', reload);
      return;
    }
  }
  const settings = { ...DEFAULTS, ...(stack ? {
    desiredRetention: stack.desiredRetention, newCardsPerDay: stack.newCardsPerDay, reviewsPerDay: stack.reviewsPerDay,
    fsrsSteps: stepless(stack),
  } : {}) };
  const form = {
    stack, stackId: params.stackId, editing, settings, scheduler: stack?.scheduler ?? 'fsrs', navigate,
    back: editing ? `/app/stacks/${params.stackId}` : '/app/stacks',
  };
  render(root, pageTemplate(form));
  new StackFormScreen(root, form); // lives as long as the listeners it sets
}

/** One visit of the form: the stack being written (`form.stack`, null for a new one). */
class StackFormScreen {
  constructor(root, { stack, stackId, editing, back, navigate }) {
    this.root = root;
    this.stack = stack;
    this.stackId = stackId;
    this.editing = editing;
    this.back = back;
    this.navigate = navigate;
    this.form = root.querySelector('#stack-form');
    this.fields = this.form.elements;
    this.picker = this.form.querySelector('color-picker');
    this.formError = root.querySelector('#form-error');
    this.listen();
    this.updatePreview();
    if (!editing) this.fields.name.focus();
  }

  get chosenIcon() { return this.fields.icon.value || null; }

  listen() {
    const { form } = this;
    this.fields.name.addEventListener('input', () => this.updatePreview());
    form.addEventListener('color-change', () => this.updatePreview());
    form.addEventListener('change', (event) => {
      if (event.target.name === 'icon') this.updatePreview();
      if (event.target.name === 'scheduler') this.showSettings();
    });
    form.addEventListener('submit', (event) => { event.preventDefault(); this.submit(); });
  }

  updatePreview() {
    const { root, picker } = this;
    const preview = root.querySelector('#preview');
    const n = this.fields.name.value.trim() || t('stack.namePlaceholder').replace(/^(z\. B\.|e\.g\.)\s*/, '');
    render(root.querySelector('#preview-badge'), previewBadge(this.chosenIcon));
    root.querySelector('#preview-name').textContent = n;
    preview.dataset.color = picker.value;
    preview.style.setProperty('--c', picker.value);
    preview.style.setProperty('--on-c', readableOn(picker.value));
  }

  showSettings() {
    const fsrs = this.fields.scheduler.value === 'fsrs';
    this.root.querySelector('#fsrs-settings').hidden = !fsrs;
    this.root.querySelector('#ladder-settings').hidden = fsrs;
  }

  /** The FSRS settings to send (only changed ones when editing), or null when one is invalid. */
  settingsToSend() {
    const { fields, editing, stack } = this;
    if (fields.scheduler.value !== 'fsrs') return {};
    const [newCards, reviews, retention] = ['newCardsPerDay', 'reviewsPerDay', 'retention'].map((n) => readWhole(fields[n]));
    if (newCards === null || reviews === null || retention === null) return null;
    const out = {};
    if (!editing || newCards !== stack.newCardsPerDay) out.newCardsPerDay = newCards;
    if (!editing || reviews !== stack.reviewsPerDay) out.reviewsPerDay = reviews;
    if (!editing || retention !== percent(stack.desiredRetention)) out.desiredRetention = retention / 100;
    // No fixed steps: FSRS schedules the same-day reviews; off again: the default steps.
    const fsrsSteps = fields.fsrsSteps.checked;
    if (fsrsSteps && (!editing || !stepless(stack))) Object.assign(out, { learningSteps: [], relearningSteps: [] });
    if (!fsrsSteps && editing && stepless(stack)) Object.assign(out, { learningSteps: DEFAULT_STEPS.learning, relearningSteps: DEFAULT_STEPS.relearning });
    return out;
  }

  /** The description and icon to send (only changed ones when editing). */
  libraryToSend() {
    const { editing, stack } = this;
    const library = {};
    const text = this.fields.description.value.trim();
    if (!editing ? text : text !== (stack.description ?? '')) library.description = text;
    if (!editing ? this.chosenIcon : this.chosenIcon !== (stack.icon ?? null)) library.icon = this.chosenIcon;
    return library;
  }

  /** Says what stops the form; false when it may be sent. */
  check(value, chosen) {
    const { fields, picker, formError, editing } = this;
    fieldError(fields.name, value ? '' : t('stack.emptyName'));
    if (value && picker.value && chosen) return true;
    formError.textContent = !value || !picker.value
      ? t(editing ? 'stack.updateError' : 'stack.createError')
      : t('stack.settingsError');
    formError.hidden = false;
    (value ? this.form.querySelector('[aria-invalid=true]') : fields.name)?.focus();
    return false;
  }

  /** Switching the method of a stack with cards asks first (the server reschedules every card). */
  async confirmMethod(kind) {
    const { stack } = this;
    if (!this.editing || kind === stack.scheduler || stack.cardCount === 0) return true;
    const ok = await confirmDialog({
      title: t('stack.switchTitle'),
      text: t('stack.switchText', { method: t(`stack.${kind}Name`) }),
      confirmLabel: t('stack.switchConfirm'),
      danger: false,
      warning: true,
    });
    if (!ok) {
      // Cancelled: the stack keeps its method (the other changes stay in the form).
      this.form.querySelector(`input[name=scheduler][value=${stack.scheduler}]`).checked = true;
      this.showSettings();
    }
    return ok;
  }

  async submit() {
    const { fields, editing } = this;
    this.formError.hidden = true;
    const value = fields.name.value.trim();
    const chosen = this.settingsToSend();
    if (!this.check(value, chosen)) return;
    const kind = fields.scheduler.value;
    if (!(await this.confirmMethod(kind))) return;
    const button = this.form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      await this.save(value, kind, { ...chosen, ...this.libraryToSend() });
    } catch (error) {
      setBusy(button, false);
      if (error.status === 401) return;
      this.formError.textContent = error.status === 0 ? t('error.network') : t(editing ? 'stack.updateError' : 'stack.createError');
      this.formError.hidden = false;
    }
  }

  async save(name, kind, extra) {
    const { stack, picker } = this;
    const hints = this.fields.hintsEnabled.checked;
    if (this.editing) {
      const changes = { name, color: picker.value, ...extra };
      if (kind !== stack.scheduler) changes.scheduler = kind;
      if (hints !== (stack.hintsEnabled !== false)) changes.hintsEnabled = hints;
      await api.updateStack(this.stackId, changes);
      toast(t('stack.updated'));
      leaveTo(this.back);
    } else {
      const created = await api.createStack(name, picker.value, kind, hints, extra);
      toast(t('stack.created', { name: created.name }));
      // Into the new, empty stack: its next steps are adding cards or having them made.
      this.navigate(`/app/stacks/${created.id}`, { replace: true });
    }
  }
}

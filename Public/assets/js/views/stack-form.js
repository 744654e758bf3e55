// Create a stack (/app/stacks/new) or change one (/app/stacks/{id}/edit): name, colour, learning
// method and whether hints are shown.

import { html, readableOn, render } from '../html.js';
import { t } from '../i18n.js';
import { api } from '../api/client.js';
import { registerColorPicker } from '../../components/color-picker/color-picker.js';
import { errorText, errorView, fieldError, loadingView, setBusy, toast } from '../ui.js';
import { badgeText } from './dashboard.js';

export async function mount(root, { params, navigate }) {
  registerColorPicker();
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
  render(root, html`
    <section class="page page-narrow">
      <nav class="breadcrumb" aria-label="Breadcrumb">
        <a href="${back}">${t('back')}</a>
      </nav>
      <div class="panel">
        <h1>${t(editing ? 'stack.editTitle' : 'stack.createTitle')}</h1>
        <p class="muted">${t(editing ? 'stack.editLead' : 'stack.createLead')}</p>
        <div class="alert alert-error" role="alert" id="form-error" hidden></div>
        <form novalidate id="stack-form" class="stack-form">
          <div class="field">
            <label for="stack-name">${t('stack.name')}</label>
            <input id="stack-name" name="name" type="text" maxlength="200" required autocomplete="off"
              placeholder="${t('stack.namePlaceholder')}" value="${stack?.name ?? ''}">
          </div>
          <color-picker name="color" value="${stack?.color ?? '#059669'}" label="${t('stack.color')}"></color-picker>
          <fieldset class="choice-group">
            <legend>${t('stack.scheduler')}</legend>
            ${['fsrs', 'ladder'].map((kind) => html`
              <label class="choice">
                <input type="radio" name="scheduler" value="${kind}" ${(stack?.scheduler ?? 'fsrs') === kind ? 'checked' : ''}>
                <span><strong>${t(`stack.${kind}`)}</strong><span class="small muted">${t(`stack.${kind}Help`)}</span></span>
              </label>`)}
          </fieldset>
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
            <a class="btn btn-secondary" href="${back}">${t('back')}</a>
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
  const updatePreview = () => {
    const n = name.value.trim() || t('stack.namePlaceholder').replace(/^(z\. B\.|e\.g\.)\s*/, '');
    root.querySelector('#preview-badge').textContent = badgeText(n);
    root.querySelector('#preview-name').textContent = n;
    preview.dataset.color = picker.value;
    preview.style.setProperty('--c', picker.value);
    preview.style.setProperty('--on-c', readableOn(picker.value));
  };
  name.addEventListener('input', updatePreview);
  form.addEventListener('color-change', updatePreview);
  updatePreview();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.hidden = true;
    const value = name.value.trim();
    fieldError(name, value ? '' : t('stack.emptyName'));
    if (!value || !picker.value) {
      formError.textContent = t(editing ? 'stack.updateError' : 'stack.createError');
      formError.hidden = false;
      name.focus();
      return;
    }
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      if (editing) {
        const changes = { name: value, color: picker.value };
        if (form.elements.scheduler.value !== stack.scheduler) changes.scheduler = form.elements.scheduler.value;
        if (hints.checked !== (stack.hintsEnabled !== false)) changes.hintsEnabled = hints.checked;
        await api.updateStack(params.stackId, changes);
        toast(t('stack.updated'));
        navigate(`/app/stacks/${params.stackId}`);
      } else {
        const created = await api.createStack(value, picker.value, form.elements.scheduler.value, hints.checked);
        toast(t('stack.created', { name: created.name }));
        navigate('/app/stacks');
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

// "Automatisch erstellen" (/app/stacks/{id}/create): four sources (PDF, photo, text, topic),
// custom instructions, a progress area and a review list for drafts. All server calls go
// through api/generation.js.

import { html, render } from '../html.js';
import { currentLanguage, formatNumber, t } from '../i18n.js';
import { api } from '../api/client.js';
import { GenerationFailedError, GenerationUnavailableError, LIMITS, acceptDrafts, generateDrafts } from '../api/generation.js';
import { leaveTo } from '../router.js';
import { backButton, errorText, errorView, fieldError, icon, loadingView, setBusy, toast, stackBreadcrumb } from '../ui.js';

/** The original's timer-driven progress texts (seconds → key). */
const PROGRESS = [[0, 'magic.p0'], [5, 'magic.p1'], [12, 'magic.p2'], [19, 'magic.p3'], [35, 'magic.p4'],
  [45, 'magic.p5'], [50, 'magic.p6'], [60, 'magic.p7']];

const SOURCES = [['pdf', 'file'], ['photo', 'camera'], ['text', 'text'], ['topic', 'bulb']];

const sizeText = (bytes) => bytes >= 1024 * 1024
  ? `${formatNumber(Math.round((bytes / 1024 / 1024) * 10) / 10)} MB`
  : `${formatNumber(Math.max(1, Math.round(bytes / 1024)))} KB`;

export async function mount(root, ctx) {
  const id = ctx.params.stackId;
  render(root, loadingView(t('loading')));
  let stack;
  try {
    stack = await api.stack(id);
  } catch (error) {
    if (error.status === 401) return;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', () => mount(root, ctx));
    return;
  }
  const stackUrl = `/app/stacks/${id}`;

  render(root, html`
    <section class="page page-narrow">
      ${stackBreadcrumb(stack, stackUrl, t('magic.crumb'))}
      <div class="panel">
        <h1>${t('magic.title')}</h1>
        <p class="muted">${t('magic.lead')}</p>
        <div class="alert alert-error" role="alert" id="form-error" hidden></div>
        <form novalidate id="magic-form" class="stack-form">
          <fieldset class="segmented">
            <legend>${t('magic.source')}</legend>
            ${SOURCES.map(([key, ic], i) => html`
              <label class="segment">
                <input type="radio" name="source" value="${key}" ${i === 0 ? 'checked' : ''}>
                <span>${icon(ic)}${t(`magic.src.${key}`)}</span>
              </label>`)}
          </fieldset>

          <div class="field" data-source="pdf">
            <span class="label" id="pdf-label">${t('magic.file')}</span>
            <label class="dropzone" for="pdf">
              ${icon('file')}
              <span class="dropzone-title">${t('magic.upload')}</span>
              <span class="small muted">${t('magic.pdfOnly')}</span>
              <span class="small dropzone-file" data-file></span>
            </label>
            <input class="visually-hidden" id="pdf" name="pdf" type="file" accept="application/pdf,.pdf" aria-labelledby="pdf-label">
          </div>
          <div class="field" data-source="photo" hidden>
            <span class="label" id="photo-label">${t('magic.photo')}</span>
            <label class="dropzone" for="photo">
              ${icon('camera')}
              <span class="dropzone-title">${t('magic.photoUpload')}</span>
              <span class="small muted">${t('magic.photoHelp')}</span>
              <span class="small dropzone-file" data-file></span>
            </label>
            <input class="visually-hidden" id="photo" name="photo" type="file" accept="image/*" capture="environment" aria-labelledby="photo-label">
          </div>
          <div class="field" data-source="text" hidden>
            <label for="text">${t('magic.text')}</label>
            <textarea id="text" name="text" rows="8" placeholder="${t('magic.textPlaceholder')}"></textarea>
          </div>
          <div class="field" data-source="topic" hidden>
            <label for="topic">${t('magic.topic')}</label>
            <input id="topic" name="topic" type="text" maxlength="200" placeholder="${t('magic.topicPlaceholder')}" autocomplete="off">
          </div>

          <div class="field">
            <label for="instructions">${t('magic.instructions')}</label>
            <textarea id="instructions" name="instructions" rows="3" placeholder="${t('magic.instructionsPlaceholder')}"></textarea>
          </div>
          <div class="form-actions">
            ${backButton(stackUrl)}
            <button class="btn btn-magic" type="submit">${icon('sparkles')}<span>${t('magic.submit')}</span></button>
          </div>
        </form>
      </div>

      <div class="panel progress-panel" id="progress-area" hidden>
        <div class="state state-loading" role="status" aria-live="polite">
          <span class="spinner" aria-hidden="true"></span><span id="progress-text"></span>
        </div>
        <div class="progress"><span class="progress-bar progress-indeterminate"></span></div>
        <button type="button" class="btn btn-secondary" id="cancel">${t('magic.cancel')}</button>
      </div>

      <section class="panel" id="drafts" aria-labelledby="drafts-title" hidden>
        <h2 id="drafts-title">${t('magic.draftsTitle')}</h2>
        <p class="muted">${t('magic.draftsLead')}</p>
        <ol class="draft-list" id="draft-list"></ol>
        <div class="form-actions"><button type="button" class="btn btn-primary" id="accept"></button></div>
      </section>
    </section>`);

  const form = root.querySelector('#magic-form');
  const formError = root.querySelector('#form-error');
  const progressArea = root.querySelector('#progress-area');
  const draftsArea = root.querySelector('#drafts');
  let controller = null;
  let timers = [];

  const source = () => form.elements.source.value;
  form.addEventListener('change', (event) => {
    if (event.target.name === 'source') {
      for (const el of form.querySelectorAll('[data-source]')) el.hidden = el.dataset.source !== source();
      formError.hidden = true;
    }
    if (event.target.type === 'file') {
      const file = event.target.files[0];
      const label = event.target.closest('.field').querySelector('[data-file]');
      label.textContent = file ? t('magic.selected', { name: file.name, size: sizeText(file.size) }) : '';
      fieldError(event.target, '');
    }
  });

  function validate() {
    const s = source();
    if (s === 'pdf' || s === 'photo') {
      const input = form.elements[s];
      const file = input.files[0];
      if (!file) return [input, t('magic.fileError')];
      if (s === 'pdf' && !(file.type === 'application/pdf' || /\.pdf$/i.test(file.name))) return [input, t('magic.notPdf')];
      if (s === 'photo' && !file.type.startsWith('image/')) return [input, t('magic.notImage')];
      if (file.size > LIMITS.maxBytes) return [input, t('magic.tooLarge')];
    }
    if (s === 'text' && !form.elements.text.value.trim()) return [form.elements.text, t('magic.emptyText')];
    if (s === 'topic' && !form.elements.topic.value.trim()) return [form.elements.topic, t('magic.emptyTopic')];
    return null;
  }

  function stopProgress() {
    timers.forEach(clearTimeout);
    timers = [];
    progressArea.hidden = true;
  }

  function startProgress() {
    const text = root.querySelector('#progress-text');
    progressArea.hidden = false;
    // The original's timed texts until the server reports real progress.
    for (const [seconds, key] of PROGRESS) {
      timers.push(setTimeout(() => { text.textContent = t(key); }, seconds * 1000));
    }
  }

  function showJobProgress(job) {
    const p = job.progress;
    if (!p || !p.stage || p.stage === 'done') return;
    timers.forEach(clearTimeout);
    timers = [];
    const key = `magic.stage.${p.stage}`;
    const own = t(key) === key ? '' : t(key, { current: p.current ?? 0, total: p.total ?? 0 });
    // The server's German line is the most precise; other languages build their own.
    root.querySelector('#progress-text').textContent =
      (currentLanguage() === 'de' && p.message) || own || root.querySelector('#progress-text').textContent;
  }

  function showDrafts(drafts) {
    const list = root.querySelector('#draft-list');
    render(list, html`${drafts.map((d, i) => html`
      <li class="draft" data-id="${d.id}">
        <label class="draft-check"><input type="checkbox" checked data-i="${i}"><span class="visually-hidden">${t('magic.draftInclude', { n: i + 1 })}</span></label>
        <div class="draft-fields">
          <input type="text" value="${d.question}" data-field="question" aria-label="${t('detail.colFront')} ${i + 1}">
          <textarea rows="3" data-field="answer" aria-label="${t('detail.colBack')} ${i + 1}">${d.answer}</textarea>
        </div>
      </li>`)}`);
    const accept = root.querySelector('#accept');
    const update = () => { accept.textContent = t('magic.accept', { count: list.querySelectorAll('input:checked').length }); };
    list.onchange = update;
    update();
    draftsArea.hidden = false;
    accept.onclick = async () => {
      const chosen = [...list.querySelectorAll('li')].map((li, i) => {
        const question = li.querySelector('[data-field=question]').value.trim();
        const answer = li.querySelector('[data-field=answer]').value.trim();
        return {
          id: li.dataset.id,
          question,
          answer,
          keep: li.querySelector('input[type=checkbox]').checked && Boolean(question && answer),
          changed: question !== drafts[i].question || answer !== drafts[i].answer,
        };
      });
      setBusy(accept, true);
      try {
        const count = await acceptDrafts(id, chosen);
        toast(t('magic.accepted', { count }));
        leaveTo(stackUrl); // the drafts are cards now: Back must not return to the review list
      } catch (error) {
        setBusy(accept, false);
        if (error.status !== 401) { formError.textContent = t('magic.error'); formError.hidden = false; }
      }
    };
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.hidden = true;
    for (const el of form.querySelectorAll('[aria-invalid]')) fieldError(el, '');
    const problem = validate();
    if (problem) {
      const [input, message] = problem;
      fieldError(input, message);
      formError.textContent = message;
      formError.hidden = false;
      (input.type === 'file' ? input.closest('.field').querySelector('.dropzone') : input).focus?.();
      return;
    }
    const s = source();
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    controller = new AbortController();
    startProgress();
    try {
      const { drafts } = await generateDrafts(id, {
        source: s,
        file: s === 'pdf' || s === 'photo' ? form.elements[s].files[0] : undefined,
        text: s === 'text' ? form.elements.text.value : undefined,
        topic: s === 'topic' ? form.elements.topic.value.trim() : undefined,
        instructions: form.elements.instructions.value.trim(),
      }, { signal: controller.signal, onProgress: showJobProgress });
      stopProgress();
      if (!drafts.length) {
        formError.textContent = t('magic.noDrafts');
        formError.hidden = false;
        return;
      }
      showDrafts(drafts);
      draftsArea.querySelector('h2').setAttribute('tabindex', '-1');
      draftsArea.querySelector('h2').focus();
    } catch (error) {
      stopProgress();
      if (error.name === 'AbortError' || error.status === 401) return;
      let message = t('magic.error');
      if (error instanceof GenerationUnavailableError) message = t('magic.unavailable');
      else if (error instanceof GenerationFailedError && currentLanguage() === 'de' && error.message) message = error.message;
      else if (error.status === 413) message = t('magic.tooLarge');
      else if (error.status === 415) message = t('magic.unsupported');
      else if (error.status === 0) message = t('error.network');
      formError.textContent = message;
      formError.classList.toggle('alert-info', error instanceof GenerationUnavailableError);
      formError.hidden = false;
      formError.focus?.();
    } finally {
      setBusy(button, false);
    }
  });
  root.querySelector('#cancel').addEventListener('click', () => { controller?.abort(); stopProgress(); });

  return () => { controller?.abort(); timers.forEach(clearTimeout); };
}

// "Automatisch erstellen" (/app/stacks/{id}/create): four sources (PDF, photo, text, topic), a
// progress area that shows what the job really does (pages read, drafts found), and the review
// list of drafts (draft-editor.js), filled while the job still runs. The page first asks the
// server which generator it uses (`GET /generation`) and words itself after it: "automatisch"
// with the built-in rules, the model's name with a language model; topics only with a model.
// With a topic, "Weiter vertiefen" asks for the next, deeper batch and appends it to the list.
// All server calls go through api/generation.js.

import { html, render } from '../html.js';
import { currentLanguage, loadStrings, t } from '../i18n.js';
import { ApiError, api } from '../api/client.js';
import {
  GenerationFailedError, GenerationUnavailableError, acceptDrafts, generateDrafts, generatorInfo, pendingDrafts,
} from '../api/generation.js';
import { createDraftEditor } from '../draft-editor.js';
import { acceptDrops, sizeText } from '../dropzone.js';
import { leaveTo } from '../router.js';
import {
  announce, backButton, errorText, errorView, fieldError, icon, loadingView, retryable, setBusy, stackBreadcrumb, toast,
} from '../ui.js';

const SOURCES = [['pdf', 'file'], ['photo', 'camera'], ['text', 'text'], ['topic', 'bulb']];

/** The image types the server reads (its text recognition takes PNG and JPEG only). */
const IMAGE_TYPES = ['image/png', 'image/jpeg'];

/** The live region speaks a running job's state at most this often (stage changes aside). */
const ANNOUNCE_EVERY_MS = 8000;

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent || '');

export const mount = retryable(mountPage);

async function mountPage(root, ctx, reload) {
  const id = ctx.params.stackId;
  render(root, loadingView(t('loading')));
  let stack;
  let info;
  try {
    // The page's strings (and the draft editor's) come with it: i18n/magic.*.js.
    [stack, info] = await Promise.all([api.stack(id), generatorInfo(), loadStrings('magic')]);
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  const stackUrl = `/app/stacks/${id}`;
  const withModel = info.generator === 'model';
  const model = info.model || '';
  const size = sizeText(info.maxUploadBytes);
  const batch = info.topicBatchSize;

  render(root, html`
    <section class="page page-narrow magic-page">
      ${stackBreadcrumb(stack, stackUrl, t('magic.crumb'))}
      <div class="panel">
        <h1>${t('magic.title')}</h1>
        <p class="muted" id="magic-lead">${withModel && model ? t('magic.leadModel', { model }) : t('magic.lead')}</p>
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
              <span class="small muted" id="pdf-help">${t('magic.pdfOnly', { size })}</span>
              <span class="small dropzone-file" data-file></span>
            </label>
            <input class="visually-hidden" id="pdf" name="pdf" type="file" accept="application/pdf,.pdf" aria-required="true"
              aria-labelledby="pdf-label" aria-describedby="pdf-help" data-describedby="pdf-help">
          </div>
          <div class="field" data-source="photo" hidden>
            <span class="label" id="photo-label">${t('magic.photo')}</span>
            <label class="dropzone" for="photo">
              ${icon('camera')}
              <span class="dropzone-title">${t('magic.photoUpload')}</span>
              <span class="small muted" id="photo-help">${t('magic.photoHelp', { size })}</span>
              <span class="small dropzone-file" data-file></span>
            </label>
            <input class="visually-hidden" id="photo" name="photo" type="file" accept="${IMAGE_TYPES.join(',')}"
              capture="environment" aria-required="true" aria-labelledby="photo-label" aria-describedby="photo-help" data-describedby="photo-help">
          </div>
          <div class="field" data-source="text" hidden>
            <label for="text">${t('magic.text')}</label>
            <textarea id="text" name="text" rows="8" placeholder="${t('magic.textPlaceholder')}" aria-required="true"
              aria-describedby="text-help" data-describedby="text-help"></textarea>
            <p class="help" id="text-help">${t('magic.textHelp')}</p>
          </div>
          <div class="field" data-source="topic" hidden>
            ${info.topics ? html`
              <label for="topic">${t('magic.topic')}</label>
              <input id="topic" name="topic" type="text" maxlength="200" placeholder="${t('magic.topicPlaceholder')}"
                autocomplete="off" aria-required="true" aria-describedby="topic-help" data-describedby="topic-help">
              <p class="help" id="topic-help">${model ? t('magic.topicHelp', { model, count: batch }) : t('magic.topicHelpAny', { count: batch })}</p>` : html`
              <div class="topic-off" id="topic-off">
                <span class="topic-off-icon" aria-hidden="true">${icon('bulb')}</span>
                <p>${t('magic.topicOff')}</p>
                <div class="actions">
                  <button type="button" class="btn btn-secondary" data-switch="text">${icon('text')}<span>${t('magic.toText')}</span></button>
                  <button type="button" class="btn btn-secondary" data-switch="pdf">${icon('file')}<span>${t('magic.toPdf')}</span></button>
                </div>
              </div>`}
          </div>

          ${withModel ? html`
            <div class="field" data-instructions>
              <label for="instructions">${t('magic.instructions')}</label>
              <textarea id="instructions" name="instructions" rows="3" placeholder="${t('magic.instructionsPlaceholder')}"></textarea>
            </div>` : ''}
          <div class="form-actions">
            ${backButton(stackUrl)}
            <button class="btn btn-magic" type="submit" id="submit">${icon('sparkles')}<span>${t('magic.submit')}</span></button>
          </div>
        </form>
      </div>

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
      <p class="visually-hidden" id="progress-live" role="status" aria-live="polite" aria-atomic="true"></p>

      <div class="panel" id="gen-error" hidden></div>

      <div class="panel drafts-empty" id="drafts-empty" hidden>
        <h2 id="drafts-empty-title" tabindex="-1">${t('magic.noDrafts')}</h2>
        <p class="muted">${t('magic.noDraftsHelp')}</p>
        <div><button type="button" class="btn btn-secondary" id="other-source">${t('magic.otherSource')}</button></div>
      </div>

      <section class="panel drafts-panel" id="drafts" aria-labelledby="drafts-title" hidden>
        <div>
          <h2 id="drafts-title" tabindex="-1">${t('magic.draftsTitle')}</h2>
          <p class="muted">${t('magic.draftsLead')}</p>
        </div>
        <p class="gen-summary" id="gen-summary" hidden></p>
        <div class="alert alert-info gen-warnings" id="gen-warnings" hidden>
          <p class="small" id="gen-warnings-title">${t('magic.warnings')}</p>
          <ul aria-labelledby="gen-warnings-title" ${currentLanguage() === 'de' ? '' : html`lang="de"`}></ul>
        </div>
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
      </section>
      <p class="visually-hidden" id="announce" role="status" aria-live="polite"></p>
    </section>`);

  const $ = (sel) => root.querySelector(sel);
  const form = $('#magic-form');
  const submit = $('#submit');
  const formError = $('#form-error');
  const progressArea = $('#progress-area');
  const progressText = $('#progress-text');
  const progressTrack = $('#progress-track');
  const progressBar = $('#progress-bar');
  const progressFound = $('#progress-found');
  const progressLive = $('#progress-live');
  const genError = $('#gen-error');
  const emptyArea = $('#drafts-empty');
  const draftsArea = $('#drafts');
  const acceptButton = $('#accept');
  const acceptError = $('#accept-error');
  const deepenButton = $('#deepen');
  const dropButton = $('#drop-duplicates');

  const summaryEl = $('#gen-summary');
  const live = $('#announce');
  /** Speaks a short message about the review list. */
  const say = (text) => announce(live, text);

  const editor = createDraftEditor($('#draft-list'), { onChange: updateControls, announce: say });

  let running = null; // the AbortController of the job under way
  let unmounted = false; // the user has left the page: no more leaving, no more DOM work
  let topic = null; // {topic, instructions, depth} of the last topic batch

  // --- Form -------------------------------------------------------------------------------------

  const source = () => form.elements.source.value;
  const topicBlocked = () => source() === 'topic' && !info.topics;

  function showSource() {
    for (const el of form.querySelectorAll('[data-source]')) el.hidden = el.dataset.source !== source();
    const instructions = form.querySelector('[data-instructions]');
    if (instructions) instructions.hidden = topicBlocked();
    submit.hidden = topicBlocked();
    formError.hidden = true;
  }

  function switchTo(key) {
    form.elements.source.value = key;
    showSource();
    form.elements[key].focus();
  }

  form.addEventListener('change', (event) => {
    if (event.target.name === 'source') showSource();
    if (event.target.type === 'file') {
      const file = event.target.files[0];
      const label = event.target.closest('.field').querySelector('[data-file]');
      label.textContent = file ? t('magic.selected', { name: file.name, size: sizeText(file.size) }) : '';
      fieldError(event.target, '');
    }
  });
  for (const zone of form.querySelectorAll('.dropzone')) acceptDrops(zone, form.elements[zone.htmlFor]);
  form.addEventListener('click', (event) => {
    const button = event.target.closest('[data-switch]');
    if (button) switchTo(button.dataset.switch);
  });

  function validate() {
    const s = source();
    if (s === 'pdf' || s === 'photo') {
      const input = form.elements[s];
      const file = input.files[0];
      if (!file) return [input, t(`magic.fileError.${s}`)];
      if (s === 'pdf' && !(file.type === 'application/pdf' || /\.pdf$/i.test(file.name))) return [input, t('magic.notPdf', { size })];
      if (s === 'photo' && !(IMAGE_TYPES.includes(file.type) || /\.(png|jpe?g)$/i.test(file.name))) return [input, t('magic.imageType')];
      if (file.size > info.maxUploadBytes) return [input, t('magic.tooLarge', { size })];
    }
    if (s === 'text' && !form.elements.text.value.trim()) return [form.elements.text, t('magic.emptyText')];
    if (s === 'topic' && !form.elements.topic.value.trim()) return [form.elements.topic, t('magic.emptyTopic')];
    return null;
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (running || topicBlocked()) return;
    formError.hidden = true;
    for (const el of form.querySelectorAll('[aria-invalid]')) fieldError(el, '');
    const problem = validate();
    if (problem) {
      const [input, message] = problem;
      fieldError(input, message);
      formError.textContent = message;
      formError.classList.remove('alert-info');
      formError.hidden = false;
      input.focus();
      return;
    }
    const s = source();
    run({
      source: s,
      file: s === 'pdf' || s === 'photo' ? form.elements[s].files[0] : undefined,
      text: s === 'text' ? form.elements.text.value : undefined,
      topic: s === 'topic' ? form.elements.topic.value.trim() : undefined,
      depth: s === 'topic' ? 1 : undefined,
      instructions: form.elements.instructions?.value.trim() || '',
    });
  });

  // --- Progress ---------------------------------------------------------------------------------

  let spoken = { key: '', at: 0 };

  /** Speaks `text` when the stage changed (`key`) or enough time has passed: never every poll. */
  function speak(key, text, { force = false } = {}) {
    const now = Date.now();
    if (!force && key === spoken.key && now - spoken.at < ANNOUNCE_EVERY_MS) return;
    spoken = { key, at: now };
    progressLive.textContent = text;
  }

  function setBar(fraction) {
    const known = typeof fraction === 'number' && Number.isFinite(fraction);
    progressBar.classList.toggle('progress-indeterminate', !known);
    if (known) {
      const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
      progressBar.style.width = `${percent}%`;
      progressTrack.setAttribute('aria-valuemin', '0');
      progressTrack.setAttribute('aria-valuemax', '100');
      progressTrack.setAttribute('aria-valuenow', String(percent));
    } else {
      progressBar.style.removeProperty('width');
      for (const a of ['aria-valuemin', 'aria-valuemax', 'aria-valuenow']) progressTrack.removeAttribute(a);
    }
  }

  function showProgress(text, fraction, found, key) {
    progressArea.hidden = false;
    progressText.textContent = text;
    progressTrack.setAttribute('aria-valuetext', text);
    setBar(fraction);
    progressFound.hidden = !found;
    progressFound.textContent = found ? t('magic.found', { count: found }) : '';
    speak(key, found ? `${text} ${t('magic.found', { count: found })}` : text);
  }

  /** Words the job's real state: its stage, pages or sections counted, drafts found so far. */
  function showJobProgress(job) {
    const p = job.progress || {};
    const stage = p.stage || 'queued';
    const counted = Number(p.total) > 0 && p.current !== null && p.current !== undefined;
    const counts = { current: p.current, total: p.total };
    let text;
    let fraction = null;
    switch (stage) {
      case 'queued':
        text = t('magic.stage.queued');
        break;
      case 'reading':
      case 'recognizing':
        text = counted ? t(`magic.stage.${stage}`, counts) : t(`magic.stage.${stage}Any`);
        if (counted) fraction = p.current / p.total;
        break;
      case 'generating':
        if (counted && p.total > 1) {
          text = t('magic.stage.generating', counts);
          fraction = Math.max(0, p.current - 1) / p.total;
        } else {
          text = withModel && model ? t('magic.stage.generatingModel', { model }) : t('magic.stage.generatingAny');
        }
        break;
      case 'saving':
        text = t('magic.stage.saving');
        fraction = 1;
        break;
      case 'done':
        text = t('magic.stage.done');
        fraction = 1;
        break;
      default:
        text = (currentLanguage() === 'de' && p.message) || t('magic.stage.generatingAny');
    }
    showProgress(text, fraction, p.cardsCreated || 0, stage);
  }

  function stopProgress() {
    progressArea.hidden = true;
    spoken = { key: '', at: 0 };
  }

  $('#cancel').addEventListener('click', () => running?.abort());

  // --- Running a generation -------------------------------------------------------------------

  function showError(message, again) {
    render(genError, errorView(message));
    genError.querySelector('[data-retry]').addEventListener('click', () => { genError.hidden = true; again(); });
    genError.hidden = false;
  }

  function failureText(error, input) {
    const german = currentLanguage() === 'de';
    if (error instanceof GenerationFailedError && german && error.message && error.message !== 'generation_failed') return error.message;
    if (error instanceof ApiError) {
      if (error.status === 413) return input.file ? t('magic.tooLarge', { size }) : t('magic.textTooLarge');
      if (error.status === 415) return t('magic.unsupported');
      if (error.status === 422 && german && error.message) return error.message;
    }
    return errorText(error, `magic.error.${input.source}`);
  }

  /** "12 Vorschläge aus 3 Seiten, davon 2 schon im Stapel." (pages only for a PDF: `isPdf`). */
  function summaryText(result, count, more, isPdf) {
    const drafts = Number.isInteger(result.drafts) ? result.drafts : count;
    let text = more ? t('magic.summary.more', { count: drafts }) : t('magic.summary.drafts', { count: drafts });
    if (isPdf && Number(result.pages) > 0) text += t('magic.summary.pages', { count: result.pages });
    if (Number(result.duplicates) > 0) text += t('magic.summary.duplicates', { count: result.duplicates });
    return `${text}.`;
  }

  function showWarnings(warnings) {
    const box = $('#gen-warnings');
    const list = (Array.isArray(warnings) ? warnings : []).filter((w) => typeof w === 'string' && w.trim());
    render(box.querySelector('ul'), html`${list.map((w) => html`<li>${w}</li>`)}`);
    box.hidden = list.length === 0;
  }

  /** Shows the review list (before drafts go in, so that their fields are measured visible); focus
   * goes to its heading when it appears. */
  function showDrafts() {
    emptyArea.hidden = true;
    if (!draftsArea.hidden) return;
    draftsArea.hidden = false;
    $('#drafts-title').focus();
  }

  async function run(input, { more = false } = {}) {
    if (running) return;
    const controller = new AbortController();
    running = controller;
    genError.hidden = true;
    formError.hidden = true;
    acceptError.hidden = true;
    if (!more) {
      editor.reset();
      draftsArea.hidden = true;
      emptyArea.hidden = true;
      topic = null;
      summaryEl.hidden = true;
      showWarnings([]);
    }
    setBusy(submit, true);
    if (more) setBusy(deepenButton, true);
    showProgress(t('magic.stage.sending'), null, 0, 'sending');
    // Page numbers (in the list and the summary) for a PDF only: text and a photo are one "page".
    const isPdf = input.source === 'pdf';
    const take = (drafts) => {
      if (unmounted) return;
      if (drafts?.length) showDrafts();
      editor.add(drafts, { pages: isPdf });
    };
    try {
      const { jobId, drafts, result } = await generateDrafts(id, input, {
        signal: controller.signal,
        onProgress: showJobProgress,
        onDrafts: take,
      });
      if (unmounted) return;
      // The final list of this job wins: drafts shown early that the server dropped go.
      editor.prune(new Set(drafts.map((d) => d.id)), { jobId });
      take(drafts);
      stopProgress();
      if (input.source === 'topic') topic = { topic: input.topic, instructions: input.instructions, depth: input.depth || 1 };
      deepenButton.hidden = !(topic && info.topics);
      if (!editor.size) {
        showEmpty();
        return;
      }
      showDrafts();
      const summary = summaryText(result, drafts.length, more, isPdf);
      summaryEl.textContent = summary;
      summaryEl.hidden = false;
      if (!more) showWarnings(result.warnings);
      speak('done', more ? (drafts.length ? t('magic.deepened', { count: drafts.length }) : t('magic.deepenNone')) : summary, { force: true });
    } catch (error) {
      if (unmounted) return;
      stopProgress();
      if (error.name === 'AbortError') {
        speak('cancelled', t('magic.cancelled'), { force: true });
        if (!editor.size) draftsArea.hidden = true;
        (more ? deepenButton : submit).focus();
        return;
      }
      if (error.status === 401) return;
      if (error instanceof GenerationUnavailableError) {
        formError.textContent = t('magic.unavailable');
        formError.classList.add('alert-info');
        formError.hidden = false;
        return;
      }
      if (error instanceof GenerationFailedError && error.reason === 'nothing_generated') {
        if (more) {
          speak('done', t('magic.deepenNone'), { force: true });
          summaryEl.textContent = t('magic.deepenNone');
          summaryEl.hidden = false;
        } else if (!editor.size) {
          showEmpty();
        }
        return;
      }
      showError(failureText(error, input), () => run(input, { more }));
    } finally {
      running = null;
      setBusy(submit, false);
      setBusy(deepenButton, false);
      // A busy (disabled) button drops focus: give it back to the button that started the run.
      if (!unmounted && (document.activeElement === document.body || !document.activeElement)) {
        (!genError.hidden ? genError.querySelector('[data-retry]') : more ? deepenButton : submit).focus();
      }
    }
  }

  function showEmpty() {
    draftsArea.hidden = true;
    emptyArea.hidden = false;
    $('#drafts-empty-title').focus();
  }

  $('#other-source').addEventListener('click', () => {
    emptyArea.hidden = true;
    form.querySelector('input[name=source]:checked').focus();
  });
  deepenButton.addEventListener('click', () => {
    if (!topic || running) return;
    run({ source: 'topic', topic: topic.topic, instructions: topic.instructions, depth: topic.depth + 1 }, { more: true });
  });

  // --- Review list ------------------------------------------------------------------------------

  function updateControls() {
    const selected = editor.selected;
    acceptButton.textContent = selected ? t('magic.accept', { count: selected }) : t('magic.acceptSelected');
    acceptButton.setAttribute('aria-disabled', String(selected === 0));
    dropButton.hidden = editor.duplicates === 0;
    const duplicates = editor.selectedDuplicates;
    dropButton.textContent = t('magic.dropDuplicates', { count: duplicates });
    dropButton.setAttribute('aria-disabled', String(duplicates === 0));
  }
  updateControls();

  // Plural by the total: "1 von 1 Vorschlag" / "0 von 5 Vorschlägen".
  const selectionText = () => t('magic.selection', { selected: editor.selected, total: editor.size, count: editor.size });
  $('#select-all').addEventListener('click', () => { editor.setAll(true); say(selectionText()); });
  $('#select-none').addEventListener('click', () => { editor.setAll(false); say(selectionText()); });
  dropButton.addEventListener('click', () => {
    const count = editor.dropDuplicates();
    if (count) say(t('magic.duplicatesDropped', { count }));
  });

  async function accept() {
    if (acceptButton.disabled) return; // busy: the selection is being sent
    acceptError.hidden = true;
    // A kept draft with an empty front or back: say so at the field, send nothing.
    const empty = editor.markEmpty();
    if (empty) {
      empty.focus();
      return;
    }
    const chosen = editor.selection();
    if (!chosen.some((d) => d.keep)) {
      acceptError.textContent = t('magic.noneSelected');
      acceptError.hidden = false;
      return;
    }
    setBusy(acceptButton, true);
    try {
      const count = await acceptDrafts(id, chosen);
      toast(t('magic.accepted', { count }));
      if (unmounted) return;
      leaveTo(stackUrl); // the drafts are cards now: Back must not return to the review list
    } catch (error) {
      if (unmounted) return;
      setBusy(acceptButton, false);
      if (error.status === 401) return;
      let message = error.status === 0 || error.status === 429 ? errorText(error) : t('magic.acceptError');
      if (error.status === 404) {
        // A draft is gone (discarded by an earlier try, or its job was cancelled): show what is left.
        try {
          const pending = await pendingDrafts(id);
          if (unmounted) return;
          editor.prune(new Set(pending.map((d) => d.id)));
          message = t('magic.acceptGone');
        } catch { /* keep the general message */ }
      }
      acceptError.textContent = message;
      acceptError.hidden = false;
      acceptButton.focus();
    }
  }

  acceptButton.addEventListener('click', accept);
  // Ctrl+Enter (⌘+Enter) anywhere in the review list accepts the selection.
  draftsArea.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
      event.preventDefault();
      accept();
    }
  });

  return () => {
    unmounted = true;
    running?.abort();
  };
}

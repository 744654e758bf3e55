// Create (/app/stacks/{id}/cards/new) or edit (/app/stacks/{id}/cards/{cardId}) a flashcard.

import { html, render } from '../html.js';
import { currentLanguage, formatDateTime, loadStrings, t } from '../i18n.js';
import { api } from '../api/client.js';
import { setRichHTML } from '../rich-text.js';
import { clozeGaps } from '../offline/sides.js';
import { leaveTo } from '../router.js';
import {
  backButton, confirmDialog, errorText, errorView, fieldError, icon, loadStylesheet, loadingView, setBusy, toast,
  stackBreadcrumb,
} from '../ui.js';

/** The card kinds (CardKind), in the order the form offers them. */
const KINDS = ['basic', 'reversed', 'cloze', 'trueFalse', 'multipleChoice', 'fillBlank'];
/** The largest image the server takes (CardImageProcessor.maximumBytes). */
const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** The error codes of an image upload the form words itself in English. */
const IMAGE_ERRORS = ['payload_too_large', 'unsupported_media_type', 'image_invalid', 'image_quota', 'image_processing'];

export async function mount(root, ctx) {
  const { params } = ctx;
  const editing = Boolean(params.cardId);
  const stackUrl = `/app/stacks/${params.stackId}`;
  render(root, loadingView(t('loading')));
  let stack;
  let card = null;
  try {
    [stack, card] = await Promise.all([
      api.stack(params.stackId),
      editing ? api.card(params.stackId, params.cardId) : null,
      loadStrings('more'), // the formatting option's strings
      loadStylesheet('/assets/css/rich-text.css'),
      loadStylesheet('/assets/css/more.css'), // the card kind's select
    ]);
  } catch (error) {
    if (error.status === 401) return;
    // Offline: the card as stored on this device (an edit then waits in the outbox).
    const stored = error.status === 0 && editing ? await storedCard(params) : null;
    if (!stored) {
      render(root, errorView(errorText(error)));
      root.querySelector('[data-retry]').addEventListener('click', () => mount(root, ctx));
      return;
    }
    [stack, card] = stored;
  }

  render(root, html`
    <section class="page page-narrow">
      ${stackBreadcrumb(stack, stackUrl)}
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
      </div>
      <div class="panel" id="card-panel">
        <div class="panel-title-row">
          <h1>${t(editing ? 'card.editTitle' : 'card.createTitle')}</h1>
          ${editing ? html`<a class="btn btn-ghost btn-sm" href="${stackUrl}/cards/new">${icon('plus')}<span>${t('card.new')}</span></a>` : ''}
        </div>
        <p class="muted">${t('card.lead')}</p>
        ${editing ? html`<p class="small muted">${icon('clock')} ${t('card.due', { date: formatDateTime(card.dueAt) })}</p>` : ''}
        <div class="alert alert-error" role="alert" id="form-error" hidden></div>
        <form novalidate id="card-form" class="stack-form">
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
          </div>
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
          </div>
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
          </div>
          <section class="card-preview" id="preview" aria-labelledby="preview-title" hidden>
            <h2 class="small" id="preview-title">${t('card.preview')}</h2>
            <p class="help" id="preview-status" aria-live="polite"></p>
            <div class="preview-face"><span class="preview-label">${t('card.question').replace(/\s*\*$/, '')}</span><div id="preview-question"></div></div>
            <div class="preview-face"><span class="preview-label">${t('card.answer').replace(/\s*\*$/, '')}</span><div id="preview-answer"></div></div>
          </section>
          <div class="form-actions">
            ${editing ? html`<button type="button" class="btn btn-danger-ghost" id="delete-card">${icon('trash')}<span>${t('delete')}</span></button>` : ''}
            <span class="spacer"></span>
            ${backButton(stackUrl)}
            <button class="btn btn-primary" type="submit">${t('save')}</button>
          </div>
        </form>
      </div>
    </section>`);

  const form = root.querySelector('#card-form');
  const savedText = root.querySelector('#saved p');
  let offline = false;
  const formError = root.querySelector('#form-error');
  const saved = root.querySelector('#saved');
  const { question, answer, hint, rich, kind, choices } = form.elements;
  const makeGap = root.querySelector('#make-gap');

  /** Shows the fields the chosen kind has, with its labels and help. */
  function showKind() {
    const k = kind.value;
    root.querySelector('#kind-help').textContent = t(`card.kindHelp.${k}`) + (editing ? ` ${t('card.kindFixed')}` : '');
    root.querySelector('#question-label').textContent = t(`card.questionLabel.${k}`);
    const questionHelp = root.querySelector('#question-help');
    questionHelp.hidden = !['cloze', 'fillBlank'].includes(k);
    questionHelp.textContent = questionHelp.hidden ? '' : t(`card.questionHelp.${k}`);
    makeGap.hidden = k !== 'cloze';
    root.querySelector('#truth').hidden = k !== 'trueFalse';
    root.querySelector('#answer-field').hidden = k === 'trueFalse';
    root.querySelector('#answer-label').textContent = t(`card.answerLabel.${k}`);
    answer.required = !['cloze', 'trueFalse'].includes(k);
    root.querySelector('#choices-field').hidden = k !== 'multipleChoice';
  }

  /** Wraps the selected text of the question in the next cloze gap ({{cN::…}}). */
  function wrapGap() {
    const { selectionStart: start, selectionEnd: end, value } = question;
    const used = clozeGaps(value).map((gap) => gap.number);
    const n = used.length ? Math.max(...used) + 1 : 1;
    const inner = value.slice(start, end) || '…';
    question.setRangeText(`{{c${n}::${inner}}}`, start, end, 'end');
    question.focus();
    question.dispatchEvent(new Event('input', { bubbles: true }));
  }
  kind.addEventListener('change', showKind);
  makeGap.addEventListener('click', wrapGap);
  question.addEventListener('keydown', (event) => {
    if (kind.value === 'cloze' && event.ctrlKey && event.shiftKey && event.key.toLowerCase() === 'c') {
      event.preventDefault();
      wrapGap();
    }
  });
  showKind();
  const preview = root.querySelector('#preview');
  const previewStatus = root.querySelector('#preview-status');
  let previewTimer = 0;
  let previewAbort = null;

  /** The preview of a rich card, rendered by the server (as the card will be), shortly after typing. */
  async function updatePreview() {
    preview.hidden = !rich.checked;
    if (!rich.checked) return;
    previewAbort?.abort();
    previewAbort = new AbortController();
    const { signal } = previewAbort;
    const texts = [question.value, answer.value];
    if (!texts.some((text) => text.trim())) {
      previewStatus.textContent = t('card.previewEmpty');
      for (const id of ['#preview-question', '#preview-answer']) root.querySelector(id).replaceChildren();
      return;
    }
    try {
      const [front, back] = await Promise.all(texts.map((text) => api.render(text, signal)));
      if (signal.aborted) return;
      previewStatus.textContent = '';
      setRichHTML(root.querySelector('#preview-question'), front.html);
      setRichHTML(root.querySelector('#preview-answer'), back.html);
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      previewStatus.textContent = t('card.previewError');
    }
  }
  const schedulePreview = () => { clearTimeout(previewTimer); previewTimer = setTimeout(updatePreview, 250); };
  rich.addEventListener('change', updatePreview);
  question.addEventListener('input', schedulePreview);
  answer.addEventListener('input', schedulePreview);
  updatePreview();

  // Images: from the picker, the camera, the clipboard or a drop onto a text field; uploaded, then
  // their Markdown goes to the cursor of the text field used last (a card with an image is rich).
  const textFields = [question, answer, hint];
  let lastField = question;
  let uploading = 0;
  const submitButton = form.querySelector('button[type=submit]');
  const imageStatus = root.querySelector('#image-status');
  const imageError = root.querySelector('#image-error');
  const imageAlt = root.querySelector('#image-alt');
  const imageFile = root.querySelector('#image-file');
  const photoFile = root.querySelector('#photo-file');
  root.querySelector('#take-photo').hidden = !matchMedia('(pointer: coarse)').matches;
  for (const field of textFields) field.addEventListener('focus', () => { lastField = field; });

  /** The field an image goes into: the one used last, unless the card kind hides it. */
  const targetField = () => (lastField.closest('[hidden]') ? question : lastField);

  /** Puts `markdown` at the cursor of `field` (a space apart from the words around it). */
  function insertAtCursor(field, markdown) {
    const { value } = field;
    const start = field.selectionStart ?? value.length;
    const end = field.selectionEnd ?? value.length;
    const before = start > 0 && !/\s/.test(value[start - 1]) ? ' ' : '';
    const after = end < value.length && !/\s/.test(value[end]) ? ' ' : '';
    field.focus();
    field.setRangeText(before + markdown + after, start, end, 'end');
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }

  /** The image's Markdown with the description typed for it (brackets and backslashes escaped). */
  function imageMarkdown(image) {
    const alt = imageAlt.value.trim().replace(/[\r\n]+/g, ' ').replace(/[\\[\]]/g, (c) => `\\${c}`);
    return alt ? `![${alt}](image:${image.id})` : image.markdown;
  }

  /** The words for a refused upload: the server's German message, or ours by its code. */
  function imageErrorText(error) {
    if (error.status === 0) return t('error.network');
    if (currentLanguage() === 'de' && error.message && error.code) return error.message;
    const code = IMAGE_ERRORS.find((known) => error.code === known);
    return code ? t(`card.image.error.${code}`) : t('card.image.error');
  }

  const imageTools = root.querySelector('#image-tools');
  function showUploading() {
    submitButton.disabled = uploading > 0;
    imageTools.setAttribute('aria-busy', String(uploading > 0));
    if (uploading > 0) imageStatus.textContent = t('card.image.uploading');
  }

  /** Uploads `files` one after the other into `field`. */
  async function uploadImages(files, field = targetField()) {
    imageError.hidden = true;
    for (const file of files) {
      if (file.size > MAX_IMAGE_BYTES) {
        imageError.textContent = t('card.image.error.payload_too_large');
        imageError.hidden = false;
        imageStatus.textContent = '';
        continue;
      }
      uploading += 1;
      showUploading();
      try {
        const image = await api.uploadImage(file);
        if (!root.isConnected) return;
        insertAtCursor(field, imageMarkdown(image));
        imageAlt.value = '';
        let note = t('card.image.done');
        if (!rich.checked) {
          rich.checked = true; // an image shows on a rich card only
          note += ` ${t('card.image.madeRich')}`;
        }
        imageStatus.textContent = note;
        updatePreview();
      } catch (error) {
        if (error.status === 401) return;
        imageStatus.textContent = '';
        imageError.textContent = imageErrorText(error);
        imageError.hidden = false;
      } finally {
        uploading -= 1;
        showUploading();
      }
    }
  }

  root.querySelector('#insert-image').addEventListener('click', () => imageFile.click());
  root.querySelector('#take-photo').addEventListener('click', () => photoFile.click());
  for (const input of [imageFile, photoFile]) {
    input.addEventListener('change', () => {
      const files = [...input.files];
      input.value = ''; // the same file may be chosen again
      if (files.length) uploadImages(files);
    });
  }
  /** The files a paste or drop brings (images only when `imagesOnly`). */
  const filesOf = (transfer, imagesOnly) => [...(transfer?.files ?? [])]
    .filter((file) => !imagesOnly || file.type.startsWith('image/'));
  for (const field of textFields) {
    field.addEventListener('paste', (event) => {
      const files = filesOf(event.clipboardData, true);
      if (!files.length) return; // text is pasted as text
      event.preventDefault();
      lastField = field;
      uploadImages(files, field);
    });
    field.addEventListener('dragover', (event) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault(); // allows the drop (a file would otherwise open in the tab)
      event.dataTransfer.dropEffect = 'copy';
      field.classList.add('is-drop-target');
    });
    field.addEventListener('dragleave', () => field.classList.remove('is-drop-target'));
    field.addEventListener('drop', (event) => {
      field.classList.remove('is-drop-target');
      const files = filesOf(event.dataTransfer, false);
      if (!files.length) return;
      event.preventDefault();
      lastField = field;
      uploadImages(files, field);
    });
  }

  form.addEventListener('input', () => { saved.hidden = true; });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (uploading > 0) return; // the image's Markdown is not in the text yet
    formError.hidden = true;
    saved.hidden = true;
    const k = kind.value;
    const q = question.value.trim();
    const a = k === 'trueFalse' ? form.elements.truth.value : answer.value.trim();
    const wrong = choices.value.split('\n').map((line) => line.trim()).filter(Boolean);
    // What the server checks for each kind, said before sending.
    const questionProblem = !q ? t('card.emptyQuestion')
      : k === 'cloze' && !clozeGaps(q).some((gap) => gap.answer.trim()) ? t('card.needGap')
        : k === 'fillBlank' && !q.includes('___') ? t('card.needBlank') : '';
    const answerProblem = a || k === 'cloze' ? '' : t('card.emptyAnswer');
    const distinct = new Set([a, ...wrong].map((text) => text.toLocaleLowerCase()));
    const choicesProblem = k !== 'multipleChoice' ? ''
      : wrong.length < 1 || wrong.length > 7 ? t('card.choicesCount')
        : distinct.size <= wrong.length ? t('card.choicesDuplicate') : '';
    fieldError(question, questionProblem);
    fieldError(answer, answerProblem);
    fieldError(choices, choicesProblem);
    if (questionProblem || answerProblem || choicesProblem) {
      // An empty side gets the form's own message; what a card kind needs is said as such.
      const kindProblem = [t('card.needGap'), t('card.needBlank')].includes(questionProblem) ? questionProblem
        : choicesProblem;
      formError.textContent = kindProblem || t('card.error');
      formError.hidden = false;
      (questionProblem ? question : answerProblem ? answer : choices).focus();
      return;
    }
    const button = submitButton;
    setBusy(button, true);
    try {
      const h = hint.value.trim();
      const format = rich.checked ? 'markdown' : 'plain';
      if (editing) {
        // The hint only when the user changed it: an unchanged generated hint stays generated, so
        // the server remakes it for a new question or answer (a sent hint becomes the user's).
        const changes = { question: q, answer: a };
        if (k === 'multipleChoice') changes.choices = wrong;
        if (h !== (card.hint ?? '')) changes.hint = h;
        if (format !== (card.format ?? 'plain')) changes.format = format;
        offline = false;
        card = await api.updateCard(params.stackId, params.cardId, changes).catch(async (error) => {
          if (error.status !== 0) throw error;
          offline = true; // kept on this device; sent, last writer wins, when back online
          return (await import('../offline/local-study.js')).editCard(params.stackId, params.cardId, changes);
        });
        if (!offline) keepLocally((m) => m.remember([card]));
        savedText.textContent = t(offline ? 'offline.savedEdit' : 'card.savedText');
      } else {
        await api.createCard(params.stackId, {
          question: q, answer: a, format, ...(h ? { hint: h } : {}), ...(k === 'basic' ? {} : { kind: k }),
          ...(k === 'multipleChoice' ? { choices: wrong } : {}),
        });
        const keepRich = rich.checked;
        form.reset();
        rich.checked = keepRich; // the next card is likely written the same way
        kind.value = k; // and of the same kind
        showKind();
        updatePreview();
      }
      saved.hidden = false;
      saved.scrollIntoView({ block: 'nearest' });
      (editing ? saved.querySelector('a') : question).focus();
    } catch (error) {
      if (error.status === 401) return;
      // A kind's rule the form did not catch: the server's message says which.
      formError.textContent = error.status === 0 ? t('error.network')
        : error.code === 'card_kind_rules' ? error.message : t('card.error');
      formError.hidden = false;
    } finally {
      setBusy(button, false);
      showUploading();
    }
  });

  root.querySelector('#delete-card')?.addEventListener('click', async () => {
    const ok = await confirmDialog({ title: t('card.deleteTitle'), text: t('card.deleteText'), confirmLabel: t('delete') });
    if (!ok) return;
    try {
      await api.deleteCard(params.stackId, params.cardId);
      keepLocally((m) => m.forget([params.cardId]));
      toast(t('card.deleted'));
      leaveTo(stackUrl); // Back must not return to the deleted card
    } catch (error) {
      if (error.status !== 401) toast(errorText(error), 'error');
    }
  });

  question.focus();
}

/** The stack and card as stored on this device (offline/local-study.js), or null. */
async function storedCard({ stackId, cardId }) {
  try {
    const local = await import('../offline/local-study.js');
    await loadStrings('more');
    return [await local.stack(stackId), await local.card(stackId, cardId)];
  } catch {
    return null;
  }
}

/** Updates the local copy for offline study (offline/sync.js); never fails the form. */
function keepLocally(change) {
  import('../offline/sync.js').then(change).catch(() => {});
}

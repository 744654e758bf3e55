// The card form's logic (views/card-form.js): one CardFormScreen per visit owns the card being
// written, shows the fields of its kind, checks it as the server would and saves it (offline: an
// edit waits in the outbox). The preview (card-form/preview.js) and the images
// (card-form/images.js) are its parts; destroy() ends the preview's timer and request.

import { loadStrings, t } from '../../i18n.js';
import { api } from '../../api/client.js';
import { clozeGaps } from '../../offline/sides.js';
import { leaveTo } from '../../router.js';
import { confirmDialog, errorText, fieldError, setBusy, toast } from '../../ui.js';
import { CardImages } from './images.js';
import { CardPreview } from './preview.js';

/** What the server checks for each kind, said before sending: {question, answer, choices} problems. */
function cardProblems({ kind: k, question: q, answer: a, wrong }) {
  const question = !q ? t('card.emptyQuestion')
    : k === 'cloze' && !clozeGaps(q).some((gap) => gap.answer.trim()) ? t('card.needGap')
      : k === 'fillBlank' && !q.includes('___') ? t('card.needBlank') : '';
  const answer = a || k === 'cloze' ? '' : t('card.emptyAnswer');
  const distinct = new Set([a, ...wrong].map((text) => text.toLocaleLowerCase()));
  const choices = k !== 'multipleChoice' ? ''
    : wrong.length < 1 || wrong.length > 7 ? t('card.choicesCount')
      : distinct.size <= wrong.length ? t('card.choicesDuplicate') : '';
  return { question, answer, choices };
}

/** The stack and card as stored on this device (offline/local-study.js), or null. */
export async function storedCard({ stackId, cardId }) {
  try {
    const local = await import('../../offline/local-study.js');
    await loadStrings('more');
    return [await local.stack(stackId), await local.card(stackId, cardId)];
  } catch {
    return null;
  }
}

/** Updates the local copy for offline study (offline/sync.js); never fails the form. */
function keepLocally(change) {
  import('../../offline/sync.js').then(change).catch(() => {});
}

export class CardFormScreen {
  /** `form`: {params, card, editing, stackUrl} (card-form.js); `root` holds its page. */
  constructor(root, form) {
    this.root = root;
    this.params = form.params;
    this.card = form.card;
    this.editing = form.editing;
    this.stackUrl = form.stackUrl;
    this.form = root.querySelector('#card-form');
    this.fields = this.form.elements;
    this.formError = root.querySelector('#form-error');
    this.saved = root.querySelector('#saved');
    this.makeGap = root.querySelector('#make-gap');
    this.submitButton = this.form.querySelector('button[type=submit]');
    this.preview = new CardPreview(root, this.fields);
    this.images = new CardImages(root, {
      fields: this.fields, submit: this.submitButton, onInserted: () => this.preview.update(),
    });
    this.listen();
    this.showKind();
    this.preview.update();
    this.fields.question.focus();
  }

  destroy() {
    this.preview.destroy();
  }

  listen() {
    const { kind, question, answer, rich } = this.fields;
    kind.addEventListener('change', () => this.showKind());
    this.makeGap.addEventListener('click', () => this.wrapGap());
    question.addEventListener('keydown', (event) => {
      if (kind.value === 'cloze' && event.ctrlKey && event.shiftKey && event.key.toLowerCase() === 'c') {
        event.preventDefault();
        this.wrapGap();
      }
    });
    rich.addEventListener('change', () => this.preview.update());
    question.addEventListener('input', () => this.preview.schedule());
    answer.addEventListener('input', () => this.preview.schedule());
    this.form.addEventListener('input', () => { this.saved.hidden = true; });
    this.form.addEventListener('submit', (event) => { event.preventDefault(); this.submit(); });
    this.root.querySelector('#delete-card')?.addEventListener('click', () => this.remove());
  }

  /** Shows the fields the chosen kind has, with its labels and help. */
  showKind() {
    const $ = (sel) => this.root.querySelector(sel);
    const k = this.fields.kind.value;
    $('#kind-help').textContent = t(`card.kindHelp.${k}`) + (this.editing ? ` ${t('card.kindFixed')}` : '');
    $('#question-label').textContent = t(`card.questionLabel.${k}`);
    const questionHelp = $('#question-help');
    questionHelp.hidden = !['cloze', 'fillBlank'].includes(k);
    questionHelp.textContent = questionHelp.hidden ? '' : t(`card.questionHelp.${k}`);
    this.makeGap.hidden = k !== 'cloze';
    $('#truth').hidden = k !== 'trueFalse';
    $('#answer-field').hidden = k === 'trueFalse';
    $('#answer-label').textContent = t(`card.answerLabel.${k}`);
    this.fields.answer.required = !['cloze', 'trueFalse'].includes(k);
    $('#choices-field').hidden = k !== 'multipleChoice';
  }

  /** Wraps the selected text of the question in the next cloze gap ({{cN::…}}). */
  wrapGap() {
    const { question } = this.fields;
    const { selectionStart: start, selectionEnd: end, value } = question;
    const used = clozeGaps(value).map((gap) => gap.number);
    const n = used.length ? Math.max(...used) + 1 : 1;
    const inner = value.slice(start, end) || '…';
    question.setRangeText(`{{c${n}::${inner}}}`, start, end, 'end');
    question.focus();
    question.dispatchEvent(new Event('input', { bubbles: true }));
  }

  /** The card as typed: {kind, question, answer, wrong choices, hint, format}. */
  typed() {
    const f = this.fields;
    const k = f.kind.value;
    return {
      kind: k,
      question: f.question.value.trim(),
      answer: k === 'trueFalse' ? f.truth.value : f.answer.value.trim(),
      wrong: f.choices.value.split('\n').map((line) => line.trim()).filter(Boolean),
      hint: f.hint.value.trim(),
      format: f.rich.checked ? 'markdown' : 'plain',
    };
  }

  /** Marks the fields the card breaks a rule in; false when it may be sent. */
  check(typed) {
    const { question, answer, choices } = this.fields;
    const problems = cardProblems(typed);
    fieldError(question, problems.question);
    fieldError(answer, problems.answer);
    fieldError(choices, problems.choices);
    if (!(problems.question || problems.answer || problems.choices)) return true;
    // An empty side gets the form's own message; what a card kind needs is said as such.
    const kindProblem = [t('card.needGap'), t('card.needBlank')].includes(problems.question) ? problems.question
      : problems.choices;
    this.formError.textContent = kindProblem || t('card.error');
    this.formError.hidden = false;
    (problems.question ? question : problems.answer ? answer : choices).focus();
    return false;
  }

  async submit() {
    if (this.images.busy) return; // the image's Markdown is not in the text yet
    this.formError.hidden = true;
    this.saved.hidden = true;
    const typed = this.typed();
    if (!this.check(typed)) return;
    setBusy(this.submitButton, true);
    try {
      if (this.editing) await this.update(typed);
      else await this.create(typed);
      this.saved.hidden = false;
      this.saved.scrollIntoView({ block: 'nearest' });
      (this.editing ? this.saved.querySelector('a') : this.fields.question).focus();
    } catch (error) {
      if (error.status === 401) return;
      // A kind's rule the form did not catch: the server's message says which.
      this.formError.textContent = error.status === 0 ? t('error.network')
        : error.code === 'card_kind_rules' ? error.message : t('card.error');
      this.formError.hidden = false;
    } finally {
      setBusy(this.submitButton, false);
      this.images.showUploading();
    }
  }

  async update({ kind: k, question, answer, wrong, hint, format }) {
    const { stackId, cardId } = this.params;
    // The hint only when the user changed it: an unchanged generated hint stays generated, so
    // the server remakes it for a new question or answer (a sent hint becomes the user's).
    const changes = { question, answer };
    if (k === 'multipleChoice') changes.choices = wrong;
    if (hint !== (this.card.hint ?? '')) changes.hint = hint;
    if (format !== (this.card.format ?? 'plain')) changes.format = format;
    let offline = false;
    this.card = await api.updateCard(stackId, cardId, changes).catch(async (error) => {
      if (error.status !== 0) throw error;
      offline = true; // kept on this device; sent, last writer wins, when back online
      return (await import('../../offline/local-study.js')).editCard(stackId, cardId, changes);
    });
    if (!offline) keepLocally((m) => m.remember([this.card]));
    this.root.querySelector('#saved p').textContent = t(offline ? 'offline.savedEdit' : 'card.savedText');
  }

  async create({ kind: k, question, answer, wrong, hint, format }) {
    await api.createCard(this.params.stackId, {
      question, answer, format, ...(hint ? { hint } : {}), ...(k === 'basic' ? {} : { kind: k }),
      ...(k === 'multipleChoice' ? { choices: wrong } : {}),
    });
    const { rich, kind } = this.fields;
    const keepRich = rich.checked;
    this.form.reset();
    rich.checked = keepRich; // the next card is likely written the same way
    kind.value = k; // and of the same kind
    this.showKind();
    this.preview.update();
  }

  async remove() {
    const ok = await confirmDialog({ title: t('card.deleteTitle'), text: t('card.deleteText'), confirmLabel: t('delete') });
    if (!ok) return;
    const { stackId, cardId } = this.params;
    try {
      await api.deleteCard(stackId, cardId);
      keepLocally((m) => m.forget([cardId]));
      toast(t('card.deleted'));
      leaveTo(this.stackUrl); // Back must not return to the deleted card
    } catch (error) {
      if (error.status !== 401) toast(errorText(error), 'error');
    }
  }
}

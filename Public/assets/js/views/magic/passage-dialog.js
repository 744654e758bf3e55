// "Karte daraus machen": a small form for a card from a passage of the source text
// (magic/source-view.js). It asks the server for the rules' card (`POST …/drafts/suggestion`),
// lets the learner edit front and back (for a passage the rules make nothing of, the front is empty
// and focused) and saves the draft to the job (`POST …/drafts`). Ctrl+Enter (⌘+Enter) adds it.

import { html } from '../../html.js';
import { openModal } from '../../../components/modal-dialog/modal-dialog.js';
import { currentLanguage, t } from '../../i18n.js';
import { createDraft, suggestCard } from '../../api/generation.js';
import { errorText, fieldError, setBusy } from '../../ui.js';

const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent || '');

const markup = (passage, page) => html`
  <form class="dialog-body passage-form" novalidate>
    <h2 id="passage-title" class="dialog-title">${t('magic.source.make')}</h2>
    <figure class="draft-source passage-quote">
      <blockquote>${t('magic.quote', { text: passage })}</blockquote>
      ${page ? html`<figcaption>${t('magic.page', { n: page })}</figcaption>` : ''}
    </figure>
    <p class="small muted" id="passage-note" role="status">${t('magic.passage.loading')}</p>
    <div class="field">
      <label for="passage-question">${t('magic.passage.question')}</label>
      <textarea id="passage-question" name="question" rows="2" disabled></textarea>
    </div>
    <div class="field">
      <label for="passage-answer">${t('magic.passage.answer')}</label>
      <textarea id="passage-answer" name="answer" rows="3" disabled></textarea>
    </div>
    <div class="alert alert-error" role="alert" id="passage-error" hidden></div>
    <p class="help hide-touch">${isMac() ? t('magic.passage.keysMac') : t('magic.passage.keys')}</p>
    <div class="dialog-actions">
      <button type="button" class="btn btn-secondary" data-cancel>${t('cancel')}</button>
      <button type="submit" class="btn btn-primary" disabled>${t('magic.passage.add')}</button>
    </div>
  </form>`;

/**
 * Opens the form for a card from `passage` (`page`: where it starts in a PDF, or null) of the job
 * `jobId`; resolves with the saved draft, or null when the learner cancelled (or `signal` ended
 * it: the page was left).
 */
export async function passageDialog({ stackId, jobId, passage, page, signal }) {
  const modal = openModal(markup(passage, page), { labelledBy: 'passage-title', className: 'passage-dialog' });
  const form = modal.dialog.querySelector('form');
  const controller = new AbortController();
  const state = { kind: 'manual' };
  modal.done.then(() => controller.abort());
  signal?.addEventListener('abort', () => modal.close(null), { once: true, signal: controller.signal });
  form.querySelector('[data-cancel]').focus();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    save(form, modal, { stackId, jobId, passage, page, kind: state.kind });
  });
  // A side that has text again loses its "empty" mark.
  form.addEventListener('input', (event) => {
    if (event.target.matches('[aria-invalid]') && event.target.value.trim()) fieldError(event.target, '');
  });
  form.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
      event.preventDefault();
      form.requestSubmit();
    }
  });
  await suggest(form, { stackId, jobId, passage, signal: controller.signal, state });
  return (await modal.done) || null;
}

/** Fills the form with the rules' card (or leaves the front to the learner) and focuses it. */
async function suggest(form, { stackId, jobId, passage, signal, state }) {
  const { question, answer } = form.elements;
  const note = form.querySelector('#passage-note');
  let card = null;
  try {
    card = await suggestCard(stackId, passage, { jobId, signal });
  } catch (error) {
    if (error.name === 'AbortError' || signal.aborted) return;
    if (error.status === 401) { form.closest('modal-dialog').close(null); return; }
  }
  if (signal.aborted) return;
  const manual = !card || card.kind === 'manual' || !card.question;
  state.kind = card?.kind || 'manual';
  question.value = manual ? '' : card.question;
  answer.value = card?.answer || passage;
  note.textContent = card ? (manual ? t('magic.passage.manual') : t('magic.passage.ready')) : t('magic.passage.failed');
  for (const el of form.querySelectorAll('textarea, button[type=submit]')) el.disabled = false;
  question.focus();
}

async function save(form, modal, { stackId, jobId, passage, page, kind }) {
  const { question, answer } = form.elements;
  const button = form.querySelector('button[type=submit]');
  const error = form.querySelector('#passage-error');
  if (button.disabled) return;
  error.hidden = true;
  let first = null;
  for (const el of [question, answer]) {
    fieldError(el, el.value.trim() ? '' : t('magic.emptyDraft'));
    if (!el.value.trim()) first ??= el;
  }
  if (first) { first.focus(); return; }
  setBusy(button, true);
  try {
    const draft = await createDraft(stackId, {
      jobId, question: question.value.trim(), answer: answer.value.trim(),
      source: passage, sourcePage: page || undefined, kind,
    });
    modal.close(draft);
  } catch (problem) {
    setBusy(button, false);
    if (problem.status === 401) { modal.close(null); return; }
    const german = problem.status === 400 && currentLanguage() === 'de' && problem.message;
    error.textContent = german ? problem.message : errorText(problem, 'magic.passage.error');
    error.hidden = false;
    button.focus();
  }
}

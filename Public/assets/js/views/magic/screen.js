// The logic of "Automatisch erstellen" (views/magic.js): one MagicScreen per visit owns the page's
// state (the job under way, the last topic batch, whether the page was left), listens to the page
// and drives the progress (magic/progress.js) and the review list (draft-editor.js). Leaving the
// page (destroy) aborts the job under way, which ends its polling and cancels it on the server.

import { render } from '../../html.js';
import { currentLanguage, t } from '../../i18n.js';
import { ApiError } from '../../api/client.js';
import {
  GenerationFailedError, GenerationUnavailableError, acceptDrafts, generateDrafts, pendingDrafts, reviewDrafts,
} from '../../api/generation.js';
import { createDraftEditor } from '../../draft-editor.js';
import { acceptDrops, sizeText } from '../../dropzone.js';
import { leaveTo } from '../../router.js';
import { announce, errorText, errorView, fieldError, setBusy, toast } from '../../ui.js';
import { GenerationProgress } from './progress.js';
import { IMAGE_TYPES, gapsMarkup, gapsText, summaryText, warningItems } from './render.js';
import { gapTitles, isGapWarning } from './source-model.js';
import { SourceView } from './source-view.js';

export class MagicScreen {
  /** `gen`: {id, stackUrl, info, withModel, model, size, batch} (magic.js); `root` holds its page. */
  constructor(root, gen) {
    this.root = root;
    this.gen = gen;
    this.running = null; // the AbortController of the job under way
    this.unmounted = false; // the user has left the page: no more leaving, no more DOM work
    this.topic = null; // {topic, instructions, depth} of the last topic batch
    const $ = (sel) => root.querySelector(sel);
    this.el = {
      form: $('#magic-form'), submit: $('#submit'), formError: $('#form-error'), genError: $('#gen-error'),
      emptyArea: $('#drafts-empty'), draftsArea: $('#drafts'), acceptButton: $('#accept'), acceptError: $('#accept-error'),
      deepenButton: $('#deepen'), dropButton: $('#drop-duplicates'), summary: $('#gen-summary'), live: $('#announce'),
    };
    this.progress = new GenerationProgress(root, gen.withModel && gen.model ? gen.model : '');
    this.editor = createDraftEditor($('#draft-list'), { onChange: () => this.updateControls(), announce: (text) => this.say(text) });
    this.sourceView = new SourceView(root, { stackId: gen.id, editor: this.editor, announce: (text) => this.say(text) });
    this.listenForm();
    this.listenDrafts();
    this.updateControls();
  }

  destroy() {
    this.unmounted = true;
    this.running?.abort();
    this.sourceView.destroy();
  }

  /** Speaks a short message about the review list. */
  say(text) { announce(this.el.live, text); }

  // --- Form -------------------------------------------------------------------------------------

  get source() { return this.el.form.elements.source.value; }

  get topicBlocked() { return this.source === 'topic' && !this.gen.info.topics; }

  listenForm() {
    const { form } = this.el;
    form.addEventListener('change', (event) => {
      if (event.target.name === 'source') this.showSource();
      if (event.target.type === 'file') this.showFile(event.target);
    });
    for (const zone of form.querySelectorAll('.dropzone')) acceptDrops(zone, form.elements[zone.htmlFor]);
    form.addEventListener('click', (event) => {
      const button = event.target.closest('[data-switch]');
      if (button) this.switchTo(button.dataset.switch);
    });
    form.addEventListener('submit', (event) => { event.preventDefault(); this.submit(); });
    this.root.querySelector('#cancel').addEventListener('click', () => this.running?.abort());
    this.root.querySelector('#other-source').addEventListener('click', () => {
      this.el.emptyArea.hidden = true;
      form.querySelector('input[name=source]:checked').focus();
    });
    this.el.deepenButton.addEventListener('click', () => this.deepen());
  }

  showSource() {
    const { form, submit, formError } = this.el;
    for (const el of form.querySelectorAll('[data-source]')) el.hidden = el.dataset.source !== this.source;
    const instructions = form.querySelector('[data-instructions]');
    if (instructions) instructions.hidden = this.topicBlocked;
    submit.hidden = this.topicBlocked;
    formError.hidden = true;
  }

  showFile(input) {
    const file = input.files[0];
    const label = input.closest('.field').querySelector('[data-file]');
    label.textContent = file ? t('magic.selected', { name: file.name, size: sizeText(file.size) }) : '';
    fieldError(input, '');
  }

  switchTo(key) {
    this.el.form.elements.source.value = key;
    this.showSource();
    this.el.form.elements[key].focus();
  }

  /** The field that stops the form and why, or null. */
  validate() {
    const { form } = this.el;
    const { size, info } = this.gen;
    const s = this.source;
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

  submit() {
    const { form, formError } = this.el;
    if (this.running || this.topicBlocked) return;
    formError.hidden = true;
    for (const el of form.querySelectorAll('[aria-invalid]')) fieldError(el, '');
    const problem = this.validate();
    if (problem) {
      const [input, message] = problem;
      fieldError(input, message);
      formError.textContent = message;
      formError.classList.remove('alert-info');
      formError.hidden = false;
      input.focus();
      return;
    }
    const s = this.source;
    this.run({
      source: s,
      file: s === 'pdf' || s === 'photo' ? form.elements[s].files[0] : undefined,
      text: s === 'text' ? form.elements.text.value : undefined,
      topic: s === 'topic' ? form.elements.topic.value.trim() : undefined,
      depth: s === 'topic' ? 1 : undefined,
      instructions: form.elements.instructions?.value.trim() || '',
    });
  }

  deepen() {
    const { topic } = this;
    if (!topic || this.running) return;
    this.run({ source: 'topic', topic: topic.topic, instructions: topic.instructions, depth: topic.depth + 1 }, { more: true });
  }

  // --- Running a generation -------------------------------------------------------------------

  showError(message, again) {
    const { genError } = this.el;
    render(genError, errorView(message));
    genError.querySelector('[data-retry]').addEventListener('click', () => { genError.hidden = true; again(); });
    genError.hidden = false;
  }

  failureText(error, input) {
    const german = currentLanguage() === 'de';
    if (error instanceof GenerationFailedError && german && error.message && error.message !== 'generation_failed') return error.message;
    if (error instanceof ApiError) {
      if (error.status === 413) return input.file ? t('magic.tooLarge', { size: this.gen.size }) : t('magic.textTooLarge');
      if (error.status === 415) return t('magic.unsupported');
      if (error.status === 422 && german && error.message) return error.message;
    }
    return errorText(error, `magic.error.${input.source}`);
  }

  /** The job's warnings; `gaps`: the sections without cards are named apart (showGaps), so their
   * German warning is left out. */
  showWarnings(warnings, { gaps = false } = {}) {
    const box = this.root.querySelector('#gen-warnings');
    const list = (Array.isArray(warnings) ? warnings : [])
      .filter((w) => typeof w === 'string' && w.trim() && !(gaps && isGapWarning(w)));
    render(box.querySelector('ul'), warningItems(list));
    box.hidden = list.length === 0;
  }

  /** "Zu 2 Abschnitten wurden keine Karten erstellt: A, B." from the job result; returns the
   * sentence ('' when every section has cards). */
  showGaps(result) {
    const titles = gapTitles(result);
    const line = this.root.querySelector('#gen-gaps');
    if (titles.length) render(line, gapsMarkup(titles));
    line.hidden = titles.length === 0;
    return titles.length ? gapsText(titles) : '';
  }

  /** Shows the review list (before drafts go in, so that their fields are measured visible); focus
   * goes to its heading when it appears. */
  showDrafts() {
    const { emptyArea, draftsArea } = this.el;
    emptyArea.hidden = true;
    if (!draftsArea.hidden) return;
    draftsArea.hidden = false;
    this.root.querySelector('#drafts-title').focus();
  }

  showEmpty() {
    this.el.draftsArea.hidden = true;
    this.el.emptyArea.hidden = false;
    this.root.querySelector('#drafts-empty-title').focus();
  }

  /** Before a run: a new one (not `more`) starts from an empty list. */
  startRun(more) {
    const { el } = this;
    el.genError.hidden = true;
    el.formError.hidden = true;
    el.acceptError.hidden = true;
    if (!more) {
      this.editor.reset();
      el.draftsArea.hidden = true;
      el.emptyArea.hidden = true;
      this.topic = null;
      el.summary.hidden = true;
      this.showGaps({});
      this.showWarnings([]);
      this.sourceView.reset();
    }
    setBusy(el.submit, true);
    if (more) setBusy(el.deepenButton, true);
    this.progress.show(t('magic.stage.sending'), null, 0, 'sending');
  }

  async run(input, { more = false } = {}) {
    if (this.running) return;
    const controller = new AbortController();
    this.running = controller;
    this.startRun(more);
    // Page numbers (in the list and the summary) for a PDF only: text and a photo are one "page".
    const isPdf = input.source === 'pdf';
    const take = (drafts) => {
      if (this.unmounted) return;
      if (drafts?.length) this.showDrafts();
      this.editor.add(drafts, { pages: isPdf });
    };
    try {
      const follow = { signal: controller.signal, onProgress: (job) => this.progress.showJob(job), onDrafts: take };
      // A job started elsewhere (the study partner's "more cards") is followed, not started.
      const outcome = await (input.jobId ? reviewDrafts(this.gen.id, input.jobId, follow) : generateDrafts(this.gen.id, input, follow));
      if (this.unmounted) return;
      // The final list of this job wins: drafts shown early that the server dropped go.
      this.editor.prune(new Set(outcome.drafts.map((d) => d.id)), { jobId: outcome.jobId });
      take(outcome.drafts);
      this.finished(input, outcome, { more, isPdf });
    } catch (error) {
      if (!this.unmounted) this.failed(error, input, more);
    } finally {
      this.endRun(more);
    }
  }

  /** A run ended with drafts (or none): the summary, the warnings, "Weiter vertiefen", and the
   * source text beside the drafts (not for a topic: it has none). */
  finished(input, { jobId, drafts, result }, { more, isPdf }) {
    const { el, gen } = this;
    this.progress.stop();
    if (input.source === 'topic') this.topic = { topic: input.topic, instructions: input.instructions, depth: input.depth || 1 };
    el.deepenButton.hidden = !(this.topic && gen.info.topics);
    if (!this.editor.size) {
      this.showEmpty();
      return;
    }
    this.showDrafts();
    const summary = summaryText(result, drafts.length, more, isPdf);
    el.summary.textContent = summary;
    el.summary.hidden = false;
    const gaps = more ? '' : this.showGaps(result);
    if (!more) this.showWarnings(result.warnings, { gaps: Boolean(gaps) });
    if (!more && input.source !== 'topic') this.sourceView.show(jobId);
    const deepened = drafts.length ? t('magic.deepened', { count: drafts.length }) : t('magic.deepenNone');
    this.progress.speak('done', more ? deepened : [summary, gaps].filter(Boolean).join(' '), { force: true });
  }

  failed(error, input, more) {
    const { el } = this;
    this.progress.stop();
    if (error.name === 'AbortError') {
      this.progress.speak('cancelled', t('magic.cancelled'), { force: true });
      if (!this.editor.size) el.draftsArea.hidden = true;
      (more ? el.deepenButton : el.submit).focus();
      return;
    }
    if (error.status === 401) return;
    if (error instanceof GenerationUnavailableError) {
      el.formError.textContent = t('magic.unavailable');
      el.formError.classList.add('alert-info');
      el.formError.hidden = false;
      return;
    }
    if (error instanceof GenerationFailedError && error.reason === 'nothing_generated') {
      if (more) {
        this.progress.speak('done', t('magic.deepenNone'), { force: true });
        el.summary.textContent = t('magic.deepenNone');
        el.summary.hidden = false;
      } else if (!this.editor.size) {
        this.showEmpty();
      }
      return;
    }
    this.showError(this.failureText(error, input), () => this.run(input, { more }));
  }

  endRun(more) {
    const { el } = this;
    this.running = null;
    setBusy(el.submit, false);
    setBusy(el.deepenButton, false);
    // A busy (disabled) button drops focus: give it back to the button that started the run.
    if (!this.unmounted && (document.activeElement === document.body || !document.activeElement)) {
      (!el.genError.hidden ? el.genError.querySelector('[data-retry]') : more ? el.deepenButton : el.submit).focus();
    }
  }

  // --- Review list ------------------------------------------------------------------------------

  listenDrafts() {
    const { editor, el } = this;
    // Plural by the total: "1 von 1 Vorschlag" / "0 von 5 Vorschlägen".
    const selectionText = () => t('magic.selection', { selected: editor.selected, total: editor.size, count: editor.size });
    this.root.querySelector('#select-all').addEventListener('click', () => { editor.setAll(true); this.say(selectionText()); });
    this.root.querySelector('#select-none').addEventListener('click', () => { editor.setAll(false); this.say(selectionText()); });
    el.dropButton.addEventListener('click', () => {
      const count = editor.dropDuplicates();
      if (count) this.say(t('magic.duplicatesDropped', { count }));
    });
    el.acceptButton.addEventListener('click', () => this.accept());
    // Ctrl+Enter (⌘+Enter) anywhere in the review list accepts the selection.
    el.draftsArea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey) {
        event.preventDefault();
        this.accept();
      }
    });
  }

  updateControls() {
    const { editor } = this;
    const { acceptButton, dropButton } = this.el;
    const { selected } = editor;
    acceptButton.textContent = selected ? t('magic.accept', { count: selected }) : t('magic.acceptSelected');
    acceptButton.setAttribute('aria-disabled', String(selected === 0));
    dropButton.hidden = editor.duplicates === 0;
    const duplicates = editor.selectedDuplicates;
    dropButton.textContent = t('magic.dropDuplicates', { count: duplicates });
    dropButton.setAttribute('aria-disabled', String(duplicates === 0));
  }

  async accept() {
    const { acceptButton, acceptError } = this.el;
    if (acceptButton.disabled) return; // busy: the selection is being sent
    acceptError.hidden = true;
    // A kept draft with an empty front or back: say so at the field, send nothing.
    const empty = this.editor.markEmpty();
    if (empty) {
      empty.focus();
      return;
    }
    const chosen = this.editor.selection();
    if (!chosen.some((d) => d.keep)) {
      acceptError.textContent = t('magic.noneSelected');
      acceptError.hidden = false;
      return;
    }
    setBusy(acceptButton, true);
    try {
      const count = await acceptDrafts(this.gen.id, chosen);
      toast(t('magic.accepted', { count }));
      if (this.unmounted) return;
      leaveTo(this.gen.stackUrl); // the drafts are cards now: Back must not return to the review list
    } catch (error) {
      if (!this.unmounted) await this.acceptFailed(error);
    }
  }

  async acceptFailed(error) {
    const { acceptButton, acceptError } = this.el;
    setBusy(acceptButton, false);
    if (error.status === 401) return;
    let message = error.status === 0 || error.status === 429 ? errorText(error) : t('magic.acceptError');
    if (error.status === 404) {
      // A draft is gone (discarded by an earlier try, or its job was cancelled): show what is left.
      try {
        const pending = await pendingDrafts(this.gen.id);
        if (this.unmounted) return;
        this.editor.prune(new Set(pending.map((d) => d.id)));
        message = t('magic.acceptGone');
      } catch { /* keep the general message */ }
    }
    acceptError.textContent = message;
    acceptError.hidden = false;
    acceptButton.focus();
  }
}

// The source text beside the drafts on "Automatisch erstellen" (issue 37): what the generator read,
// with the sentences that became drafts marked and the paragraphs and sections without any, so that
// the gaps are visible and covered in seconds. A marked sentence leads to its draft in the list;
// any passage (a selection, or the focused sentence) becomes a card through "Karte daraus machen"
// (magic/passage-dialog.js), which adds the draft to the list and marks the passage.
//
// Wide windows show the panel beside the list (sticky, scrolling on its own); narrower ones put it
// above the list behind the toggle "Quelltext". The sentences are one tab stop (roving tabindex):
// arrows move, Enter jumps to the sentence's draft (or makes a card when it has none in the list),
// Shift+Enter always makes one. One SourceView per visit; destroy() ends its listeners and request.

import { html, render } from '../../html.js';
import { t } from '../../i18n.js';
import { jobSource } from '../../api/generation.js';
import { errorView, loadingView } from '../../ui.js';
import { makeButton, sourceDoc } from './source-markup.js';
import {
  markSentences, nextDraft, passagePage, passageSentences, passageText, sourceModel, stepSentence,
} from './source-model.js';
import { passageDialog } from './passage-dialog.js';

/** From this width the source stands beside the list (source.css uses the same). */
const WIDE = '(min-width: 1024px)';

/** The panel waits this long before it shows its loading state: a job without a source (a quick
 * 404) never widens the page for a moment. */
const LOADING_DELAY_MS = 250;

export class SourceView {
  /** `root`: the page; `stackId`; `editor`: the draft list (draft-editor.js); `announce(text)`. */
  constructor(root, { stackId, editor, announce }) {
    const $ = (sel) => root.querySelector(sel);
    this.el = {
      page: $('.magic-page'), review: $('#review'), toggle: $('#source-toggle'), panel: $('#source-panel'),
      body: $('#source-body'), drafts: $('#review-drafts'),
    };
    this.stackId = stackId;
    this.editor = editor;
    this.announce = announce;
    this.model = null;
    this.jobId = null;
    this.current = 0; // the sentence in the tab order
    this.target = null; // what "Karte daraus machen" takes: {parts}
    this.jumps = new Map(); // sentence → the draft it last led to (several: the next one each time)
    this.loading = null; // the AbortController of the source request
    this.making = false; // the form for a passage is open
    this.pressing = false; // the button is being pressed: it keeps its place and its passage
    this.pointerDown = false; // a press or a drag in the source is under way
    this.frame = 0; // the animation frame that places the button
    this.pending = 0; // the timer that shows the loading state
    this.controller = new AbortController();
    this.wide = matchMedia(WIDE);
    this.listen();
  }

  destroy() {
    this.controller.abort();
    this.loading?.abort();
    clearTimeout(this.pending);
  }

  listen() {
    const { signal } = this.controller;
    const { body, toggle } = this.el;
    toggle.addEventListener('click', () => this.setOpen(toggle.getAttribute('aria-expanded') !== 'true'), { signal });
    this.wide.addEventListener('change', () => this.place(), { signal });
    body.addEventListener('click', (event) => this.onClick(event), { signal });
    body.addEventListener('keydown', (event) => this.onKey(event), { signal });
    body.addEventListener('focusin', (event) => this.onFocus(event), { signal });
    body.addEventListener('focusout', () => this.schedule(), { signal });
    // A press on the button must not lose the selection it is for (a tap clears it on phones).
    body.addEventListener('mousedown', (event) => { if (event.target.closest('#src-make')) event.preventDefault(); }, { signal });
    body.addEventListener('pointerdown', (event) => {
      this.pointerDown = true;
      if (event.target.closest('#src-make')) this.pressing = true;
    }, { signal });
    const released = () => setTimeout(() => { this.pointerDown = false; this.pressing = false; this.schedule(); }, 0);
    document.addEventListener('pointerup', released, { signal }); // a drag may end outside
    document.addEventListener('pointercancel', released, { signal });
    document.addEventListener('selectionchange', () => this.schedule(), { signal });
    window.addEventListener('resize', () => this.schedule(), { signal });
  }

  // --- Showing ------------------------------------------------------------------------------------

  /** Shows the source of `jobId` beside the drafts (loading first); none when the job has none. */
  show(jobId) {
    this.reset();
    this.jobId = jobId;
    this.load();
  }

  /** No source (a new run, a topic, a job without one). */
  reset() {
    this.loading?.abort();
    clearTimeout(this.pending);
    this.model = null;
    this.jobId = null;
    this.target = null;
    this.jumps.clear();
    this.el.body.replaceChildren();
    this.setShown(false);
  }

  setShown(on) {
    const { page, review, toggle, panel } = this.el;
    page.classList.toggle('has-source', on);
    review.classList.toggle('has-source', on);
    toggle.hidden = !on;
    panel.hidden = !on;
    if (on) this.place();
  }

  /** Beside the list (after it) on wide windows, above it on narrow ones: the reading order is
   * the visual order either way. */
  place() {
    const { panel, drafts } = this.el;
    const focused = panel.contains(document.activeElement) ? document.activeElement : null;
    if (this.wide.matches && drafts.nextElementSibling !== panel) drafts.after(panel);
    if (!this.wide.matches && panel.nextElementSibling !== drafts) drafts.before(panel);
    focused?.focus({ preventScroll: true });
    this.schedule();
  }

  setOpen(open) {
    this.el.toggle.setAttribute('aria-expanded', String(open));
    this.el.panel.classList.toggle('is-open', open);
  }

  async load() {
    this.loading?.abort();
    const request = new AbortController();
    this.loading = request;
    const { body } = this.el;
    render(body, loadingView(t('magic.source.loading')));
    clearTimeout(this.pending);
    if (this.el.panel.hidden) this.pending = setTimeout(() => this.setShown(true), LOADING_DELAY_MS);
    try {
      const dto = await jobSource(this.stackId, this.jobId, { signal: request.signal });
      if (request.signal.aborted) return;
      this.model = sourceModel(dto);
      if (!this.model.sentences.length) { this.reset(); return; }
      this.current = 0;
      this.setShown(true);
      this.draw();
    } catch (error) {
      if (error.name === 'AbortError' || request.signal.aborted || error.status === 401) return;
      // 404: the job has no source (a topic, a job from before), or the server has no such route.
      if (error.status === 404) { this.reset(); return; }
      this.setShown(true);
      render(body, errorView(t('magic.source.error')));
    } finally {
      if (this.loading === request) clearTimeout(this.pending);
    }
  }

  /** Draws the document (again, after a mark), keeping the panel's scroll; `focus`: the current
   * sentence takes the focus (it was replaced). */
  draw({ focus = false } = {}) {
    const { body, panel } = this.el;
    const scroll = panel.scrollTop;
    const view = { current: this.current, shown: (id) => this.editor.has(id) };
    render(body, html`${sourceDoc(this.model, view)}${makeButton()}`);
    panel.scrollTop = scroll;
    if (focus) this.sentence(this.current)?.focus({ preventScroll: true });
    this.schedule();
  }

  sentence(index) { return this.el.body.querySelector(`[data-s="${index}"]`); }

  // --- Keys, clicks, focus -----------------------------------------------------------------------

  onKey(event) {
    const el = event.target.closest('[data-s]');
    if (!el || !this.model || event.altKey || event.ctrlKey || event.metaKey) return;
    const index = Number(el.dataset.s);
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      this.activate(index, { make: event.shiftKey });
      return;
    }
    const next = event.shiftKey ? null : stepSentence(this.model.sentences.length, index, event.key);
    if (next === null) return;
    event.preventDefault();
    this.sentence(next)?.focus();
  }

  onFocus(event) {
    const el = event.target.closest('[data-s]');
    if (el) {
      this.sentence(this.current)?.setAttribute('tabindex', '-1');
      this.current = Number(el.dataset.s);
      el.setAttribute('tabindex', '0');
    }
    this.schedule();
  }

  onClick(event) {
    if (event.target.closest('[data-retry]')) { this.load(); return; }
    if (event.target.closest('#src-make')) {
      this.pressing = false;
      if (this.target) this.make(this.target.parts);
      return;
    }
    // A click on a marked sentence leads to its draft; a drag that selected text does not.
    const el = event.target.closest('[data-s]');
    const selection = getSelection();
    if (!el || !this.model || (selection && !selection.isCollapsed)) return;
    const index = Number(el.dataset.s);
    if (this.model.sentences[index].covered) this.jump(index);
  }

  /** Enter on a sentence: to its draft in the list, else (or with `make`) a card from it. */
  activate(index, { make = false } = {}) {
    if (!make && this.jump(index)) return;
    this.make([{ index, text: this.model.sentences[index].text }]);
  }

  /** Focuses the (next) draft made from sentence `index`; false when none is in the list. */
  jump(index) {
    const id = nextDraft(this.model.sentences[index].draftIds, (x) => this.editor.has(x), this.jumps.get(index));
    if (!id) return false;
    this.jumps.set(index, id);
    return this.editor.reveal(id);
  }

  // --- "Karte daraus machen" -------------------------------------------------------------------

  /** Places the button on the next frame (selection and focus settle first). */
  schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (!this.controller.signal.aborted) this.placeButton();
    });
  }

  /** The button under the selection in the source, else under the focused sentence, else hidden. */
  placeButton() {
    const button = this.el.body.querySelector('#src-make');
    if (!button || this.pressing) return;
    if (document.activeElement === button && this.target) return; // reached by Tab: stays
    const parts = this.selectionParts();
    let rects = null;
    if (parts.length) {
      this.target = { parts };
      rects = parts.at(-1).range.getClientRects(); // the selection's end within the source
    } else {
      const el = document.activeElement?.closest?.('[data-s]');
      const inside = el && this.el.body.contains(el);
      const index = Number(el?.dataset.s);
      this.target = inside ? { parts: [{ index, text: this.model.sentences[index].text }] } : null;
      rects = inside ? el.getClientRects() : null;
    }
    const last = rects?.length ? rects[rects.length - 1] : null;
    button.hidden = !this.target || !last;
    if (button.hidden) return;
    const box = this.el.body.getBoundingClientRect();
    const left = Math.max(0, Math.min(last.left - box.left, this.el.body.clientWidth - button.offsetWidth));
    button.style.top = `${Math.round(last.bottom - box.top + 6)}px`;
    button.style.left = `${Math.round(left)}px`;
    // Under the last line it may be out of the panel's view: brought in once the press is over.
    if (!this.pointerDown) button.scrollIntoView({ block: 'nearest' });
  }

  /** The selected part of each sentence the selection touches: [{index, text, range}]. */
  selectionParts() {
    const selection = getSelection();
    const doc = this.el.body.querySelector('#source-doc');
    if (!doc || !selection?.rangeCount || selection.isCollapsed) return [];
    const range = selection.getRangeAt(0);
    if (!range.intersectsNode(doc)) return [];
    const parts = [];
    let inside = false;
    for (const el of doc.querySelectorAll('[data-s]')) {
      // The sentences are in document order: the selected ones are a run.
      if (!range.intersectsNode(el)) {
        if (inside) break;
        continue;
      }
      inside = true;
      const part = document.createRange();
      part.selectNodeContents(el);
      if (range.compareBoundaryPoints(Range.START_TO_START, part) > 0) part.setStart(range.startContainer, range.startOffset);
      if (range.compareBoundaryPoints(Range.END_TO_END, part) < 0) part.setEnd(range.endContainer, range.endOffset);
      const text = part.toString();
      if (text.trim()) parts.push({ index: Number(el.dataset.s), text, range: part });
    }
    return parts;
  }

  /** Opens the form for a card from `parts`; a saved draft joins the list and marks its passage. */
  async make(parts) {
    const { model } = this;
    const passage = model ? passageText(model, parts) : '';
    if (!passage || this.making) return;
    this.making = true;
    try {
      const draft = await passageDialog({
        stackId: this.stackId, jobId: this.jobId, passage, page: passagePage(model, parts), signal: this.controller.signal,
      });
      if (!draft || this.controller.signal.aborted || this.model !== model) return;
      this.editor.add([draft], { pages: model.pages });
      const marked = passageSentences(model, parts);
      markSentences(model, marked, draft.id);
      getSelection()?.removeAllRanges();
      this.current = marked[0] ?? parts[0].index;
      this.draw({ focus: true });
      this.announce(t('magic.passage.added', { question: draft.question }));
    } finally {
      this.making = false;
    }
  }
}

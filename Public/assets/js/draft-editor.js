// The review list of generated drafts on the "Automatisch erstellen" page: one item per draft
// with growing text fields for front and back, a checkbox, the source sentence it came from, a
// switch to the draft's alternative card type and a badge for facts already in the stack.
// Drafts arrive in batches (while a job runs, and from further topic batches): new ones are
// appended, items already shown are never rendered again, so the user's edits stay.

import { html, render } from './html.js';
import { t } from './i18n.js';
import { fieldError, icon } from './ui.js';

/** Chromium (123+) grows text fields by CSS alone; elsewhere a small script does it. */
const GROWS_BY_CSS = typeof CSS !== 'undefined' && CSS.supports?.('field-sizing', 'content');

/** Makes a text field as tall as its text (no inner scrolling, nothing cut off). */
function fitHeight(el) {
  if (GROWS_BY_CSS || !el.isConnected) return;
  el.style.height = 'auto';
  const style = getComputedStyle(el);
  const borders = parseFloat(style.borderTopWidth) + parseFloat(style.borderBottomWidth);
  el.style.height = `${el.scrollHeight + borders}px`;
}

/** The label of the button that turns a draft into a card of `kind`. */
function asLabel(kind) {
  const key = `magic.as.${kind}`;
  const text = t(key);
  return text === key ? t('magic.as.question') : text;
}

/**
 * Builds the editor inside `list` (an `<ol>`). `onChange()` runs whenever the selection or the
 * set of drafts changed; `announce(text)` speaks a short message (a polite live region).
 */
export function createDraftEditor(list, { onChange = () => {}, announce = () => {} } = {}) {
  /** id → {draft, li, n, showing: 'main'|'alt', texts: {main, alt}} in the order shown. */
  const items = new Map();
  let counter = 0;

  const box = (id) => items.get(id);
  const field = (item, name) => item.li.querySelector(`[data-field=${name}]`);
  const checkbox = (item) => item.li.querySelector('input[type=checkbox]');
  const isKept = (item) => checkbox(item).checked;

  function markup(d, n, withPages) {
    const base = `draft-${n}`;
    const page = withPages ? d.sourcePage : null;
    const described = [d.duplicateOf ? `${base}-dup` : '', d.source || page ? `${base}-src` : ''].filter(Boolean).join(' ');
    const source = d.source
      ? html`<figure class="draft-source" id="${base}-src">
          <span class="visually-hidden">${t('magic.sourceOf')}${page ? `, ${t('magic.page', { n: page })}` : ''}: </span>
          <blockquote>${t('magic.quote', { text: d.source })}</blockquote>
          ${page ? html`<figcaption aria-hidden="true">${t('magic.page', { n: page })}</figcaption>` : ''}
        </figure>`
      : page
        ? html`<p class="draft-source draft-page" id="${base}-src">${t('magic.page', { n: page })}</p>`
        : '';
    return html`
      <li class="draft" data-id="${d.id}">
        <div class="draft-head">
          <span class="draft-no" aria-hidden="true">${t('magic.draftLabel', { n })}</span>
          <span class="pill pill-kind" data-kind hidden>${t('kind.fillBlank')}</span>
          ${d.duplicateOf ? html`<span class="pill pill-duplicate" title="${t('magic.duplicateOf', { q: d.duplicateOf })}" id="${base}-dup">${t('magic.duplicate')}<span class="visually-hidden">. ${t('magic.duplicateOf', { q: d.duplicateOf })}</span></span>` : ''}
        </div>
        <div class="draft-fields">
          <textarea rows="1" class="draft-question" data-field="question" id="${base}-q" aria-label="${t('magic.draftQuestion', { n })}"
            ${described ? html`aria-describedby="${described}" data-describedby="${described}"` : ''}>${d.question}</textarea>
          <textarea rows="1" class="draft-answer" data-field="answer" id="${base}-a" aria-label="${t('magic.draftAnswer', { n })}">${d.answer}</textarea>
        </div>
        ${source}
        <div class="draft-foot">
          <label class="draft-check"><input type="checkbox" checked aria-label="${t('magic.draftInclude', { n })}"><span>${t('magic.draftKeep')}</span></label>
          ${d.alternative ? html`<button type="button" class="btn btn-ghost btn-sm draft-swap" data-swap
            aria-label="${t('magic.asLabel', { n, label: asLabel(d.alternative.kind) })}">${icon('flip')}<span>${asLabel(d.alternative.kind)}</span></button>` : ''}
        </div>
      </li>`;
  }

  /** Appends the drafts not shown yet; returns how many were new. `pages`: show the source page
   * (for documents with pages; pasted text and a photo are one "page" to the server). */
  function add(drafts, { pages = true } = {}) {
    let added = 0;
    for (const d of drafts || []) {
      if (!d?.id || items.has(d.id)) continue;
      counter += 1;
      const holder = document.createElement('template');
      render(holder, markup(d, counter, pages));
      const li = holder.content.firstElementChild;
      list.append(li);
      const item = {
        draft: d, li, n: counter, showing: 'main',
        texts: { main: { question: d.question, answer: d.answer }, alt: d.alternative ? { question: d.alternative.question, answer: d.alternative.answer } : null },
      };
      items.set(d.id, item);
      for (const el of li.querySelectorAll('textarea')) fitHeight(el);
      showKind(item);
      added += 1;
    }
    if (added) onChange();
    return added;
  }

  /** Removes the items whose id is not in `keep` (drafts the server no longer has). */
  function prune(keep, { jobId } = {}) {
    let removed = 0;
    for (const [id, item] of items) {
      if (keep.has(id) || (jobId && item.draft.jobId !== jobId)) continue;
      item.li.remove();
      items.delete(id);
      removed += 1;
    }
    if (removed) onChange();
    return removed;
  }

  function reset() {
    items.clear();
    counter = 0;
    list.replaceChildren();
    onChange();
  }

  /** Names the kind of card a draft becomes when it is not a plain question and answer: a
   * sentence with a blank becomes a fill-in-the-blank card (CardKind.ofDraft on the server). */
  function showKind(item) {
    item.li.querySelector('[data-kind]').hidden = !/_{3,}/.test(field(item, 'question').value) || !field(item, 'answer').value.trim();
  }

  /** Swaps a draft between its own card and its alternative, keeping edits of either. */
  function swap(item) {
    if (!item.texts.alt) return;
    const now = item.showing;
    const next = now === 'main' ? 'alt' : 'main';
    item.texts[now] = { question: field(item, 'question').value, answer: field(item, 'answer').value };
    item.showing = next;
    field(item, 'question').value = item.texts[next].question;
    field(item, 'answer').value = item.texts[next].answer;
    for (const el of item.li.querySelectorAll('textarea')) { fitHeight(el); unmarkFilled(el); }
    showKind(item);
    // The button now offers the other kind: the one not showing.
    const otherKind = next === 'main' ? item.draft.alternative.kind : item.draft.kind;
    const button = item.li.querySelector('[data-swap]');
    button.querySelector('span').textContent = asLabel(otherKind);
    button.setAttribute('aria-label', t('magic.asLabel', { n: item.n, label: asLabel(otherKind) }));
    announce(t('magic.switched', { n: item.n, question: item.texts[next].question }));
  }

  list.addEventListener('click', (event) => {
    const button = event.target.closest('[data-swap]');
    if (!button) return;
    const item = box(button.closest('li').dataset.id);
    if (item) swap(item);
  });
  list.addEventListener('input', (event) => {
    if (!event.target.matches('textarea')) return;
    fitHeight(event.target);
    unmarkFilled(event.target);
    const item = box(event.target.closest('li').dataset.id);
    if (item) showKind(item);
  });
  list.addEventListener('change', (event) => {
    if (event.target.type !== 'checkbox') return;
    setKept(box(event.target.closest('li').dataset.id), event.target.checked);
    onChange();
  });

  /** Ticks or unticks a draft; an unticked one is not checked for empty fields. */
  function setKept(item, on) {
    checkbox(item).checked = on;
    item.li.classList.toggle('is-off', !on);
    if (!on) for (const el of item.li.querySelectorAll('textarea[aria-invalid]')) fieldError(el, '');
  }

  /** Takes the "empty" mark off a field that has text again. */
  function unmarkFilled(el) {
    if (el.hasAttribute('aria-invalid') && el.value.trim()) fieldError(el, '');
  }

  /** Marks the empty front or back of every kept draft; returns the first such field, or null
   * when the selection can be accepted. */
  function markEmpty() {
    let first = null;
    for (const item of items.values()) {
      for (const el of item.li.querySelectorAll('textarea')) {
        const empty = isKept(item) && !el.value.trim();
        fieldError(el, empty ? t('magic.emptyDraft') : '');
        if (empty) first ??= el;
      }
    }
    return first;
  }

  function setAll(checked) {
    for (const item of items.values()) setKept(item, checked);
    onChange();
  }

  /** Deselects every draft that is already in the stack; returns how many were deselected. */
  function dropDuplicates() {
    let count = 0;
    for (const item of items.values()) {
      if (item.draft.duplicateOf && isKept(item)) {
        setKept(item, false);
        count += 1;
      }
    }
    if (count) onChange();
    return count;
  }

  return {
    add,
    prune,
    reset,
    setAll,
    dropDuplicates,
    get size() { return items.size; },
    get selected() { return [...items.values()].filter(isKept).length; },
    /** Selected drafts that are already in the stack. */
    get selectedDuplicates() { return [...items.values()].filter((i) => i.draft.duplicateOf && isKept(i)).length; },
    get duplicates() { return [...items.values()].filter((i) => i.draft.duplicateOf).length; },
    markEmpty,
    /** What `acceptDrafts` needs: each draft with its current text, kept or not, changed or not
     * (call `markEmpty()` first: a kept draft must have a front and a back). */
    selection() {
      return [...items.values()].map((item) => {
        const question = field(item, 'question').value.trim();
        const answer = field(item, 'answer').value.trim();
        return {
          id: item.draft.id,
          question,
          answer,
          keep: isKept(item),
          changed: question !== item.draft.question || answer !== item.draft.answer,
        };
      });
    },
  };
}

// <card-draft>: one generated draft in the review list of "Automatisch erstellen" (draft-editor.js
// keeps the list). It shows the draft's front and back as growing text fields, the sentence it came
// from (and its page), a checkbox to keep it, a badge when the stack already has the fact and a
// switch to the draft's alternative card type; it keeps the user's edits of both types.
// A language model's draft (kind `model`) becomes a card of its `cardKind`, whatever its text: a
// badge names the kind ("Multiple Choice", "Wahr/Falsch", "Ergänzen"); a multiple-choice draft
// shows its right answer (labelled) and its wrong options (`choices`, read only); a true/false
// draft shows its statement and a select "Wahr"/"Falsch" for its answer (`true`/`false`). Every
// other draft shows "Ergänzen" while its front has a blank, as the server decides for it.
//
//   const el = document.createElement('card-draft');
//   el.show(draft, n, { pages });   // renders it once; later batches never render it again
//   el.kept = false;                // unticked: dashed, not checked for empty fields
//   el.markEmpty();                 // marks an empty front or back of a kept draft, returns it
//   el.value                        // {id, question, answer, keep, changed} for acceptDrafts
//
// Events (bubbling): `draft-keep` when the checkbox changed; `draft-announce` (detail: the text)
// for a short message to speak after a switch of type. Styles: app.css (.draft…, card-draft).

import { html, render } from '../../js/html.js';
import { t } from '../../js/i18n.js';
import { fieldError, icon } from '../../js/ui.js';

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

/** The kind of card a draft becomes when its text does not decide it (a model's draft), else null. */
function fixedKind(d) {
  return d.kind === 'model' && d.cardKind ? d.cardKind : null;
}

/** How the draft is edited: `multipleChoice`, `trueFalse` (with an answer the select knows) or `text`. */
function layoutOf(d) {
  const kind = fixedKind(d);
  if (kind === 'multipleChoice') return kind;
  if (kind === 'trueFalse' && (d.answer === 'true' || d.answer === 'false')) return kind;
  return 'text';
}

/** Where the draft came from: the quoted sentence (with its page), or only the page. */
function sourceMarkup(d, base, page) {
  if (d.source) {
    return html`<figure class="draft-source" id="${base}-src">
        <span class="visually-hidden">${t('magic.sourceOf')}${page ? `, ${t('magic.page', { n: page })}` : ''}: </span>
        <blockquote>${t('magic.quote', { text: d.source })}</blockquote>
        ${page ? html`<figcaption aria-hidden="true">${t('magic.page', { n: page })}</figcaption>` : ''}
      </figure>`;
  }
  return page ? html`<p class="draft-source draft-page" id="${base}-src">${t('magic.page', { n: page })}</p>` : '';
}

/** The back of the draft: a text field; a multiple-choice draft's right answer (labelled) and its
 * wrong options; a true/false draft's select. */
function answerMarkup(d, n, base, layout) {
  if (layout === 'trueFalse') {
    return html`<div class="draft-answer-row">
        <label class="draft-label" for="${base}-a">${t('magic.truthLabel')}</label>
        <select class="draft-truth" data-field="answer" id="${base}-a" aria-label="${t('magic.draftTruth', { n })}">
          <option value="true" ${d.answer === 'true' ? 'selected' : ''}>${t('kind.true')}</option>
          <option value="false" ${d.answer === 'false' ? 'selected' : ''}>${t('kind.false')}</option>
        </select>
      </div>`;
  }
  const field = (label) => html`<textarea rows="1" class="draft-answer" data-field="answer" id="${base}-a"
    aria-label="${label}">${d.answer}</textarea>`;
  if (layout !== 'multipleChoice') return field(t('magic.draftAnswer', { n }));
  return html`<label class="draft-label" for="${base}-a">${t('magic.rightAnswer')}</label>
    ${field(t('magic.draftRightAnswer', { n }))}
    <div class="draft-wrong">
      <p class="draft-label" id="${base}-wrong">${t('magic.wrongAnswers')}</p>
      <ul class="draft-choices" aria-labelledby="${base}-wrong">${(d.choices || []).map((c) => html`<li>${c}</li>`)}</ul>
    </div>`;
}

function markup(d, n, withPages) {
  const base = `draft-${n}`;
  const page = withPages ? d.sourcePage : null;
  const layout = layoutOf(d);
  const kind = fixedKind(d);
  const described = [d.duplicateOf ? `${base}-dup` : '', d.source || page ? `${base}-src` : ''].filter(Boolean).join(' ');
  const duplicateOf = d.duplicateOf ? t('magic.duplicateOf', { q: d.duplicateOf }) : '';
  const front = layout === 'trueFalse' ? t('magic.draftStatement', { n }) : t('magic.draftQuestion', { n });
  const kindName = kind && kind !== 'basic' ? t(`kind.${kind}`) : t('kind.fillBlank');
  return html`
    <div class="draft-head">
      <span class="draft-no" aria-hidden="true">${t('magic.draftLabel', { n })}</span>
      <span class="pill pill-kind" data-kind hidden>${kindName}</span>
      ${d.duplicateOf ? html`<span class="pill pill-duplicate" title="${duplicateOf}" id="${base}-dup">${t('magic.duplicate')}<span class="visually-hidden">. ${duplicateOf}</span></span>` : ''}
    </div>
    <div class="draft-fields" data-layout="${layout}">
      <textarea rows="1" class="draft-question" data-field="question" id="${base}-q" aria-label="${front}"
        ${described ? html`aria-describedby="${described}" data-describedby="${described}"` : ''}>${d.question}</textarea>
      ${answerMarkup(d, n, base, layout)}
    </div>
    ${sourceMarkup(d, base, page)}
    <div class="draft-foot">
      <label class="draft-check"><input type="checkbox" checked aria-label="${t('magic.draftInclude', { n })}"><span>${t('magic.draftKeep')}</span></label>
      ${d.alternative && layout === 'text' ? html`<button type="button" class="btn btn-ghost btn-sm draft-swap" data-swap
        aria-label="${t('magic.asLabel', { n, label: asLabel(d.alternative.kind) })}">${icon('flip')}<span>${asLabel(d.alternative.kind)}</span></button>` : ''}
    </div>`;
}

class CardDraft extends HTMLElement {
  /** Renders `draft` as the list's `n`th; `pages`: show the source page (documents with pages). */
  show(draft, n, { pages = true } = {}) {
    this.draft = draft;
    this.n = n;
    this.showing = 'main';
    const alt = draft.alternative;
    this.texts = {
      main: { question: draft.question, answer: draft.answer },
      alt: alt ? { question: alt.question, answer: alt.answer } : null,
    };
    render(this, markup(draft, n, pages));
    this.addEventListener('click', (event) => { if (event.target.closest('[data-swap]')) this.swap(); });
    this.addEventListener('input', (event) => this.edited(event.target));
    this.addEventListener('change', (event) => {
      if (event.target.type !== 'checkbox') return;
      this.kept = event.target.checked;
      this.dispatchEvent(new CustomEvent('draft-keep', { bubbles: true }));
    });
  }

  connectedCallback() {
    if (!this.draft) return;
    for (const el of this.fields) fitHeight(el);
    this.showKind();
  }

  get fields() { return [...this.querySelectorAll('textarea')]; }

  field(name) { return this.querySelector(`[data-field=${name}]`); }

  get duplicate() { return Boolean(this.draft.duplicateOf); }

  get kept() { return this.querySelector('input[type=checkbox]').checked; }

  /** Ticks or unticks the draft; an unticked one is not checked for empty fields. */
  set kept(on) {
    this.querySelector('input[type=checkbox]').checked = on;
    this.parentElement?.classList.toggle('is-off', !on);
    if (!on) for (const el of this.querySelectorAll('textarea[aria-invalid]')) fieldError(el, '');
  }

  edited(el) {
    if (!el.matches('textarea')) return;
    fitHeight(el);
    unmarkFilled(el);
    this.showKind();
  }

  /** Names the kind of card a draft becomes when it is not a plain question and answer: a model's
   * draft keeps its kind; any other sentence with a blank becomes a fill-in-the-blank card
   * (CardKind.ofDraft on the server). */
  showKind() {
    const kind = fixedKind(this.draft);
    this.querySelector('[data-kind]').hidden = kind
      ? kind === 'basic'
      : !/_{3,}/.test(this.field('question').value) || !this.field('answer').value.trim();
  }

  /** Swaps the draft between its own card and its alternative, keeping edits of either. */
  swap() {
    if (!this.texts.alt) return;
    const now = this.showing;
    const next = now === 'main' ? 'alt' : 'main';
    this.texts[now] = { question: this.field('question').value, answer: this.field('answer').value };
    this.showing = next;
    this.field('question').value = this.texts[next].question;
    this.field('answer').value = this.texts[next].answer;
    for (const el of this.fields) { fitHeight(el); unmarkFilled(el); }
    this.showKind();
    // The button now offers the other kind: the one not showing.
    const otherKind = next === 'main' ? this.draft.alternative.kind : this.draft.kind;
    const button = this.querySelector('[data-swap]');
    button.querySelector('span').textContent = asLabel(otherKind);
    button.setAttribute('aria-label', t('magic.asLabel', { n: this.n, label: asLabel(otherKind) }));
    const text = t('magic.switched', { n: this.n, question: this.texts[next].question });
    this.dispatchEvent(new CustomEvent('draft-announce', { bubbles: true, detail: text }));
  }

  /** Marks an empty front or back of a kept draft; returns the first such field, or null. */
  markEmpty() {
    let first = null;
    for (const el of this.fields) {
      const empty = this.kept && !el.value.trim();
      fieldError(el, empty ? t('magic.emptyDraft') : '');
      if (empty) first ??= el;
    }
    return first;
  }

  /** What `acceptDrafts` needs: the current text, kept or not, changed or not. */
  get value() {
    const question = this.field('question').value.trim();
    const answer = this.field('answer').value.trim();
    return {
      id: this.draft.id, question, answer, keep: this.kept,
      changed: question !== this.draft.question || answer !== this.draft.answer,
    };
  }
}

/** Takes the "empty" mark off a field that has text again. */
function unmarkFilled(el) {
  if (el.hasAttribute('aria-invalid') && el.value.trim()) fieldError(el, '');
}

if (!customElements.get('card-draft')) customElements.define('card-draft', CardDraft);

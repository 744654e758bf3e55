// The markup of the source text beside the drafts (magic/source-view.js): the panel, the document
// drawn from the view model (magic/source-model.js) with its marks, and the button that makes a
// card from a passage. Templates of what they are given (html`` only: no listeners, no state).

import { html } from '../../html.js';
import { currentLanguage, t } from '../../i18n.js';
import { defineIcons, icon } from '../../ui.js';

// A dashed frame: the mark of text without a card.
defineIcons({ gap: 'M4 8V4h4M12 4h0M16 4h4v4M20 12v0M20 16v4h-4M12 20v0M8 20H4v-4M4 12v0' });

/** The toggle (phones and narrow windows: the source opens above the list) and the panel. */
export const sourceToggle = () => html`
  <button type="button" class="btn btn-secondary source-toggle" id="source-toggle" aria-expanded="false"
    aria-controls="source-panel" hidden>${icon('file')}<span>${t('magic.source.toggle')}</span>${icon('down')}</button>`;

export const sourcePanel = () => html`
  <section class="source-panel" id="source-panel" aria-labelledby="source-title" hidden>
    <div class="source-head">
      <h3 id="source-title">${t('magic.source.title')}</h3>
      <p class="small muted">${t('magic.source.lead')}</p>
      <p class="small muted source-legend" aria-hidden="true">
        <span class="src-s is-covered">${t('magic.source.legendCard')}</span>
        <span class="src-gap-label">${icon('gap')}${t('magic.source.legendGap')}</span>
      </p>
      <p class="help hide-touch" id="source-keys">${t('magic.source.keys')}</p>
      <p class="visually-hidden" id="src-hint-card">${t('magic.source.hintCard')}</p>
      <p class="visually-hidden" id="src-hint-done">${t('magic.source.hintDone')}</p>
      <p class="visually-hidden" id="src-hint-none">${t('magic.source.hintNone')}</p>
    </div>
    <div class="source-body" id="source-body"></div>
  </section>`;

/** The floating "Karte daraus machen" under a selection or the focused sentence. */
export const makeButton = () => html`
  <button type="button" class="btn btn-primary btn-sm src-make" id="src-make" hidden>${icon('plus')}<span>${t('magic.source.make')}</span></button>`;

/** Which hidden description a sentence has: it has a draft in the list, a card, or none. */
const hintOf = (s, shown) => (s.covered ? (s.draftIds.some(shown) ? 'src-hint-card' : 'src-hint-done') : 'src-hint-none');

/** One sentence: a focusable target (roving tabindex: only `current` is in the tab order). */
const sentence = (s, view) => html`<span class="src-s${s.covered ? ' is-covered' : ''}" data-s="${s.index}" role="button"
  tabindex="${s.index === view.current ? '0' : '-1'}" aria-describedby="${hintOf(s, view.shown)}">${s.text}</span>`;

const sentences = (model, block, view) => {
  const list = block.sentences.map((i) => sentence(model.sentences[i], view));
  return html`${list.map((s, i) => (i ? html` ${s}` : s))}`;
};

/** Our words inside a document in another language say so (`lang`), for screen readers. */
const ours = (view) => (view.lang ? html` lang="${currentLanguage()}"` : '');

const pageMark = (block, view) => (block.pageMark ? html`<p class="src-page"${ours(view)}>${t('magic.page', { n: block.pageMark })}</p>` : '');

const gapLabel = (key, view) => html`<span class="src-gap-label"${ours(view)}>${icon('gap')}${t(key)}</span>`;

function blockMarkup(model, block, view) {
  const gap = block.gap ? ' is-gap' : '';
  if (block.kind === 'heading') return html`${pageMark(block, view)}<h4 class="src-heading">${sentences(model, block, view)}</h4>`;
  return html`${pageMark(block, view)}<div class="src-block${gap}" data-block="${block.index}">
    ${block.gap ? gapLabel('magic.source.gapParagraph', view) : ''}<p>${sentences(model, block, view)}</p></div>`;
}

const listMarkup = (model, part, view) => html`${pageMark(part.items[0], view)}<ul class="src-list">${part.items.map((block) => html`
  <li class="src-block${block.gap ? ' is-gap' : ''}" data-block="${block.index}">${block.gap ? gapLabel('magic.source.gapBullet', view) : ''}${sentences(model, block, view)}</li>`)}
  </ul>`;

function sectionMarkup(model, section, view) {
  const parts = section.parts.map((part) => (part.kind === 'list' ? listMarkup(model, part, view) : blockMarkup(model, part.block, view)));
  // The headings open the section (a title line above a chapter heading: one section); the
  // section's gap note follows them.
  const headings = section.parts.findIndex((part) => part.kind !== 'heading');
  const head = parts.splice(0, headings === -1 ? parts.length : headings);
  return html`
    <div class="src-section${section.gap ? ' is-gap' : ''}" data-section="${section.index}">
      ${head.length || !section.title ? head : html`<h4 class="src-heading">${section.title}</h4>`}
      ${section.gap ? html`<p class="src-gap"${ours(view)}>${icon('gap')}<span>${t('magic.source.gapSection')}</span></p>` : ''}
      ${parts}
    </div>`;
}

/** The document (in its own language, when the interface speaks another); `view`: {current (the
 * sentence in the tab order), shown(id) (a draft is in the list)}. */
export function sourceDoc(model, view) {
  const lang = model.language && model.language !== currentLanguage() ? model.language : null;
  const inner = { ...view, lang };
  return html`
    <div class="source-doc" id="source-doc"${lang ? html` lang="${lang}"` : ''}>${model.sections.map((s) => sectionMarkup(model, s, inner))}</div>`;
}

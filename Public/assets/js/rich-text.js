// Rich card text. A plain card's text goes in as text. A Markdown card's comes as HTML that the
// server sanitised (RichText.html: a fixed set of tags, every text escaped); it is parsed into an
// inert <template>, checked against that same set (any other element becomes its text, any other
// attribute is dropped) and only then attached, so not even a server bug could add markup.
// Formulas are typeset by KaTeX, served by our server from Debian's libjs-katex, as MathML: no
// inline styles, so the CSP stays strict. Without KaTeX a formula stays readable as LaTeX.
// Images come as <img class="card-image" data-image="<uuid>" alt="…"> without a source: an <img src>
// cannot send the bearer token, so the bytes are fetched (api/client.js imageBlob: the token, or
// the share link's token on /app/shared/<token>) and shown from a blob: URL, kept per id for the
// page's life. A placeholder box stands in while loading; an image that cannot be loaded (gone,
// not allowed, offline) becomes its description with "Bild nicht verfügbar".

import { loadStrings, t } from './i18n.js';
import { loadStylesheet } from './ui.js';
import { imageBlob } from './api/client.js';

const TAGS = new Set(['P', 'BR', 'STRONG', 'EM', 'CODE', 'PRE', 'UL', 'OL', 'LI', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'SPAN', 'DIV', 'IMG']);
const CLASSES = new Set(['math', 'math-display', 'align-left', 'align-center', 'align-right']);
const KATEX_URL = '/assets/vendor/katex/katex.min.js';
/** An image id as the server writes it: a lowercase UUID. */
const IMAGE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The card's `field` as the learner sees it: a card of another kind than basic comes with its
 * sides (`shown`: a cloze's gap hidden, a reversed card's sides swapped). */
function sideText(card, field) {
  // A true/false card's back is its truth, in the app's language.
  if (card?.kind === 'trueFalse' && field === 'answer') return t(card.answer === 'true' ? 'kind.true' : 'kind.false');
  return (field === 'question' || field === 'answer' ? card?.shown?.[field] : null) ?? card?.[field] ?? '';
}

/** Fills `el` with the card's `field` (`question`, `answer` or `hint`) as the learner sees it: rich
 * when the card is. */
export function setCardText(el, card, field) {
  const truth = card?.kind === 'trueFalse' && field === 'answer';
  const rich = card?.format === 'markdown' && !truth ? card.rendered?.[field] : null;
  if (rich == null) {
    el.classList.remove('rich-text');
    el.textContent = sideText(card, field);
    return;
  }
  setRichHTML(el, rich);
}

/** What a typed answer or a chosen option is checked against, as plain text. */
export function expectedAnswer(card) {
  return card?.shown?.expected ?? answerWords(card);
}

/** The card's answer as the words a learner types or picks (the server's CardFormat.answerText):
 * images left out, unless images are all there is (then their descriptions). */
export function answerWords(card) {
  return cardPlainText(card, 'answer', { images: false }) || cardPlainText(card, 'answer');
}

/** Fills `el` with sanitised HTML of the server (a card's `rendered` text, a preview). */
export function setRichHTML(el, markup) {
  const template = document.createElement('template');
  template.innerHTML = markup; // inert: nothing in a template loads or runs
  clean(template.content);
  loadStylesheet('/assets/css/rich-text.css');
  el.classList.add('rich-text');
  el.replaceChildren(template.content);
  typeset(el);
  loadImages(el);
}

/** Fills `el` with the images (only) of the card's rendered `field`, as small pictures beside a
 * text shown otherwise (the cards table); empties it when there are none. */
export function setCardImages(el, card, field) {
  const rich = card?.format === 'markdown' ? card.rendered?.[field] : null;
  const template = document.createElement('template');
  if (rich) template.innerHTML = rich;
  clean(template.content);
  const images = [...template.content.querySelectorAll('img.card-image')];
  el.replaceChildren(...images);
  el.hidden = !images.length;
  if (!images.length) return;
  loadStylesheet('/assets/css/rich-text.css');
  loadImages(el);
}

/** The card's `field` as plain text (for labels and short lists): the source for a plain card,
 * the rendered text's words for a rich one; an image as its description, or nothing (`images`
 * false). */
export function cardPlainText(card, field, { images = true } = {}) {
  const truth = card?.kind === 'trueFalse' && field === 'answer';
  const rich = card?.format === 'markdown' && !truth ? card.rendered?.[field] : null;
  if (rich == null) return sideText(card, field);
  const template = document.createElement('template');
  template.innerHTML = rich;
  // An image counts as its description (as the server's plain text has it).
  for (const image of template.content.querySelectorAll('img')) {
    const alt = image.getAttribute('alt')?.trim();
    image.replaceWith(document.createTextNode(images ? ` ${alt || textOr('image.label', '')} ` : ' '));
  }
  return template.content.textContent.replace(/\s+/g, ' ').trim();
}

/** The string `key`, or `fallback` while its dictionary (more.*.js) is not loaded. */
function textOr(key, fallback) {
  const text = t(key);
  return text === key ? fallback : text;
}

/** Whether `node` is an image as the server writes it: only these attributes, an id as id. */
function isCardImage(node) {
  return node.getAttribute('class') === 'card-image' && IMAGE_ID.test(node.getAttribute('data-image') ?? '');
}

function clean(parent) {
  for (const node of [...parent.childNodes]) {
    if (node.nodeType === Node.TEXT_NODE) continue;
    if (node.nodeType !== Node.ELEMENT_NODE || !TAGS.has(node.tagName)) {
      node.replaceWith(document.createTextNode(node.textContent || ''));
      continue;
    }
    if (node.tagName === 'IMG') {
      // Only our own image: class card-image, an id, a description; never a source of the HTML's.
      if (!isCardImage(node)) {
        node.replaceWith(document.createTextNode(node.getAttribute('alt') || ''));
        continue;
      }
      for (const attribute of [...node.attributes]) {
        if (!['class', 'data-image', 'alt'].includes(attribute.name)) node.removeAttribute(attribute.name);
      }
      if (!node.hasAttribute('alt')) node.setAttribute('alt', '');
      continue;
    }
    for (const attribute of [...node.attributes]) {
      const keep = attribute.name === 'class' && attribute.value.split(/\s+/).every((name) => CLASSES.has(name));
      if (!keep) node.removeAttribute(attribute.name);
    }
    clean(node);
  }
}

let katexLoading = null;

function loadKatex() {
  if (globalThis.katex) return Promise.resolve(globalThis.katex);
  katexLoading ??= new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = KATEX_URL;
    script.onload = () => resolve(globalThis.katex ?? null);
    script.onerror = () => { katexLoading = null; resolve(null); };
    document.head.append(script);
  });
  return katexLoading;
}

async function typeset(el) {
  const formulas = [...el.querySelectorAll('.math')];
  if (!formulas.length) return;
  const katex = await loadKatex();
  if (!katex) return;
  for (const node of formulas) {
    if (!node.isConnected || node.dataset.latex !== undefined) continue;
    const latex = node.textContent;
    try {
      // No trust: \href, \url, \includegraphics and \html… stay errors; limits against huge output.
      katex.render(latex, node, {
        displayMode: node.classList.contains('math-display'), output: 'mathml', throwOnError: false,
        trust: false, strict: 'ignore', maxSize: 20, maxExpand: 200,
      });
      node.dataset.latex = latex;
    } catch {
      node.textContent = latex;
    }
  }
}

/** Object URLs of loaded images by id (promises while loading), for the page's life. */
const imageUrls = new Map();

/** The share link's token when the page is a shared stack (/app/shared/<token>), else null. */
function shareToken() {
  const match = /^\/app\/shared\/([^/?#]+)/.exec(location.pathname);
  return match ? decodeURIComponent(match[1]) : null;
}

/** An object URL of image `id`; a failure is not kept, so a later card tries again. */
function imageUrl(id) {
  let url = imageUrls.get(id);
  if (!url) {
    url = imageBlob(id, shareToken()).then((blob) => URL.createObjectURL(blob)); // offline: rejects, a note stands in
    url.catch(() => imageUrls.delete(id));
    imageUrls.set(id, url);
  }
  return url;
}

/** Loads every image in `el` that has no source yet: a placeholder box meanwhile, then the
 * picture, or its description and "Bild nicht verfügbar" when it cannot be loaded. */
function loadImages(el) {
  const images = [...el.querySelectorAll('img.card-image:not([src]):not([aria-busy])')];
  if (!images.length) return;
  const strings = loadStrings('more').catch(() => {}); // the failure's words
  for (const image of images) {
    image.draggable = false; // a drag swipes the feed's card, it does not pick up the picture
    image.classList.add('is-loading');
    image.setAttribute('aria-busy', 'true');
    imageUrl(image.dataset.image).then((url) => {
      image.addEventListener('load', () => done(image), { once: true });
      image.addEventListener('error', () => strings.then(() => failed(image)), { once: true });
      image.src = url;
    }, () => strings.then(() => failed(image)));
  }
}

function done(image) {
  image.classList.remove('is-loading');
  image.removeAttribute('aria-busy');
}

/** Puts a note in place of an image that cannot be shown: its description, if any, and why. */
function failed(image) {
  const note = document.createElement('span');
  note.className = 'card-image-missing';
  note.dataset.image = image.dataset.image;
  const alt = image.getAttribute('alt')?.trim();
  const missing = textOr('image.unavailable', 'Bild nicht verfügbar');
  note.textContent = alt ? `${alt} (${missing})` : missing;
  image.replaceWith(note);
}

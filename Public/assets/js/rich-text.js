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
  const fragment = richFragment(card, 'answer');
  if (!fragment) return sideText(card, 'answer');
  return serverPlain(fragment, false) || serverPlain(fragment, true);
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

/** The card's `field` as clean plain words on one line, for what cannot show markup (labels,
 * titles, announcements): a plain card's text; a rich card's words with its paragraphs, list items
 * and table rows between " · ", cells between " | ", formulas as readable symbols (`\\frac{1}{2}`
 * as 1/2, `v^2` as v²), an image as its description (or nothing: `images` false). */
export function cardPlainText(card, field, { images = true } = {}) {
  const fragment = richFragment(card, field);
  if (!fragment) return sideText(card, field);
  const line = inlineFragment(fragment, images ? 'alt' : 'none');
  for (const formula of line.querySelectorAll('.math')) formula.replaceWith(readableLatex(formula.textContent));
  return line.textContent.replace(/\s+/g, ' ').trim();
}

/** Fills `el` with the card's `field` rendered on one line, for compact places (quiz choices, match
 * tiles, the cards table, preview lines): emphasis, code and formulas (typeset inline) kept,
 * paragraphs, list items and table rows run on between " · ", cells between " | ". `images`:
 * 'alt' (an image as its description), 'none' (left out; unless images are all there is). */
export function setCardLine(el, card, field, { images = 'alt' } = {}) {
  const fragment = richFragment(card, field);
  if (!fragment) {
    el.classList.remove('rich-text', 'rich-line');
    el.textContent = sideText(card, field);
    return;
  }
  showLine(el, fragment, images);
}

/** Fills `el` with sanitised HTML of the server on one line, as `setCardLine` does (a quiz
 * choice the server sent rendered). */
export function setRichLine(el, markup, { images = 'none' } = {}) {
  const template = document.createElement('template');
  template.innerHTML = markup;
  clean(template.content);
  showLine(el, template.content, images);
}

/** Shows the sanitised `fragment` in `el` on one line; without images when `images` is 'none',
 * unless images are all there is (then their descriptions). */
function showLine(el, fragment, images) {
  let line = inlineFragment(fragment, images);
  if (images === 'none' && !line.textContent.trim()) line = inlineFragment(fragment, 'alt');
  loadStylesheet('/assets/css/rich-text.css');
  el.classList.add('rich-text', 'rich-line');
  el.replaceChildren(line);
  typeset(el);
}

/** The words of an element filled by `setCardLine` or `setRichLine`, for a label: a formula
 * (typeset or not) as readable symbols. */
export function readableText(el) {
  const copy = el.cloneNode(true);
  for (const formula of copy.querySelectorAll('.math')) formula.replaceWith(readableLatex(formula.dataset.latex ?? formula.textContent));
  return copy.textContent.replace(/\s+/g, ' ').trim();
}

/** The sanitised fragment of a rich card's `field`; null for a plain card (or a true/false
 * card's truth). */
function richFragment(card, field) {
  const truth = card?.kind === 'trueFalse' && field === 'answer';
  const rich = card?.format === 'markdown' && !truth ? card.rendered?.[field] : null;
  if (rich == null) return null;
  const template = document.createElement('template');
  template.innerHTML = rich;
  clean(template.content);
  return template.content;
}

const INLINE = new Set(['STRONG', 'EM', 'CODE']);
const SEPARATOR = ' · ';

/** `parent` (sanitised) as one line: a new fragment of text, strong/em/code and inline formulas;
 * every block becomes a run, with " · " between runs (a space after a run ending in ".", "?",
 * ":" …; " | " between cells). `images`: 'alt' or 'none'. */
function inlineFragment(parent, images) {
  const out = document.createDocumentFragment();
  let pending = null; // the separator owed before the next content
  let started = false;
  let tail = ''; // the last character put
  const put = (target, node) => {
    // After a sentence's or a lead-in's end ("?", ":") a space is enough.
    if (pending && started) target.append(document.createTextNode(pending === SEPARATOR && /[.!?:;…]/.test(tail) ? ' ' : pending));
    pending = null;
    started = true;
    target.append(node);
    if (node.nodeType === Node.TEXT_NODE) tail = node.textContent.trimEnd().slice(-1) || tail;
    else if (node.classList?.contains('math')) tail = 'x';
  };
  const walk = (node, target) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (!child.textContent.trim() && (pending || !started)) continue;
        put(target, document.createTextNode(child.textContent));
      } else if (child.nodeType !== Node.ELEMENT_NODE) {
        continue;
      } else if (child.classList.contains('math')) {
        const formula = document.createElement('span');
        formula.className = 'math';
        formula.textContent = child.textContent;
        put(target, formula);
      } else if (child.tagName === 'IMG') {
        const alt = child.getAttribute('alt')?.trim();
        if (images === 'alt') put(target, document.createTextNode(alt || textOr('image.label', 'Bild')));
      } else if (child.tagName === 'BR') {
        put(target, document.createTextNode(' '));
      } else if (INLINE.has(child.tagName)) {
        const copy = document.createElement(child.tagName);
        put(target, copy);
        walk(child, copy);
      } else {
        // A block: its content as a run of its own.
        if (started) pending = child.tagName === 'TD' || child.tagName === 'TH' ? ' | ' : SEPARATOR;
        walk(child, target);
        if (started) pending = SEPARATOR;
      }
    }
  };
  walk(parent, out);
  return out;
}

/** `parent` (sanitised) as the server's plain text (RichText.plainText): blocks between blank
 * lines, list items on lines of their own ("- ", "1. "), cells between " | ", formulas as LaTeX;
 * without `images`, images leave nothing and the spaces around them collapse. */
function serverPlain(parent, images) {
  const inline = (node) => [...node.childNodes].map((child) => {
    if (child.nodeType === Node.TEXT_NODE) return child.textContent;
    if (child.nodeType !== Node.ELEMENT_NODE) return '';
    if (child.tagName === 'IMG') return images ? child.getAttribute('alt') || '[Bild]' : '';
    if (child.tagName === 'BR') return '\n';
    return inline(child);
  }).join('');
  const block = (node) => {
    switch (node.tagName) {
      case 'UL': case 'OL':
        return [...node.children].map((item, i) => `${node.tagName === 'OL' ? `${i + 1}. ` : '- '}${inline(item)}`).join('\n');
      case 'TABLE':
        return [...node.querySelectorAll('tr')].map((row) => [...row.children].map(inline).join(' | ')).join('\n');
      default: return inline(node);
    }
  };
  const text = [...parent.childNodes]
    .filter((node) => node.nodeType === Node.ELEMENT_NODE || node.textContent.trim())
    .map((node) => (node.nodeType === Node.ELEMENT_NODE ? block(node) : node.textContent)).join('\n\n');
  if (images) return text;
  return text.split('\n').map((line) => line.split(' ').filter(Boolean).join(' ')).join('\n').trim();
}

const GREEK = 'alpha α beta β gamma γ delta δ epsilon ε varepsilon ε zeta ζ eta η theta θ vartheta ϑ iota ι kappa κ lambda λ mu μ nu ν xi ξ pi π rho ρ sigma σ tau τ upsilon υ phi φ varphi φ chi χ psi ψ omega ω Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π Sigma Σ Phi Φ Psi Ψ Omega Ω';
const SYMBOLS = 'cdot · times × div ÷ pm ± mp ∓ le ≤ leq ≤ ge ≥ geq ≥ ne ≠ neq ≠ approx ≈ equiv ≡ sim ∼ propto ∝ infty ∞ to → rightarrow → leftarrow ← Rightarrow ⇒ Leftarrow ⇐ leftrightarrow ↔ Leftrightarrow ⇔ sum ∑ prod ∏ int ∫ oint ∮ partial ∂ nabla ∇ in ∈ notin ∉ subset ⊂ subseteq ⊆ cup ∪ cap ∩ forall ∀ exists ∃ emptyset ∅ degree ° circ ∘ ldots … cdots ⋯ dots … hbar ℏ angle ∠ perp ⊥ parallel ∥ neg ¬ land ∧ lor ∨ mathbb{R} ℝ';
const NAMED = new Map();
for (const list of [GREEK, SYMBOLS]) {
  const words = list.split(' ');
  for (let i = 0; i < words.length; i += 2) NAMED.set(words[i], words[i + 1]);
}
const SUPER = { 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹', '+': '⁺', '-': '⁻', '=': '⁼', '(': '⁽', ')': '⁾', n: 'ⁿ', i: 'ⁱ' };
const SUB = { 0: '₀', 1: '₁', 2: '₂', 3: '₃', 4: '₄', 5: '₅', 6: '₆', 7: '₇', 8: '₈', 9: '₉', '+': '₊', '-': '₋', '=': '₌', '(': '₍', ')': '₎', a: 'ₐ', e: 'ₑ', o: 'ₒ', x: 'ₓ', h: 'ₕ', k: 'ₖ', l: 'ₗ', m: 'ₘ', n: 'ₙ', p: 'ₚ', s: 'ₛ', t: 'ₜ', i: 'ᵢ', j: 'ⱼ', r: 'ᵣ', u: 'ᵤ', v: 'ᵥ' };

/** A LaTeX formula as readable plain symbols (labels, titles): `E_{kin}=\\frac{1}{2}mv^2` as
 * "Eₖᵢₙ=1/2·mv²"-like text; what it does not know stays as written, without backslashes. */
export function readableLatex(latex) {
  let text = latex;
  // Innermost groups first, so nested fractions and roots come out whole.
  const group = '\\{([^{}]*)\\}';
  const frac = new RegExp(`\\\\[dt]?frac\\s*${group}\\s*${group}`, 'g');
  const sqrt = new RegExp(`\\\\sqrt\\s*${group}`, 'g');
  const wrapper = new RegExp(`\\\\(?:text|mathrm|mathbf|mathit|mathsf|operatorname|textbf|textit|vec|overline|bar|hat)\\s*${group}`, 'g');
  const paren = (part) => (/^(?:\p{N}+(?:[.,]\p{N}+)?|\p{L}+|.)$/u.test(part) ? part : `(${part})`);
  for (let round = 0; round < 8; round += 1) {
    const before = text;
    text = text.replace(/\\mathbb\{R\}/g, 'ℝ')
      .replace(wrapper, '$1')
      // A space after a fraction keeps "1/2 mv²" from reading as 1/(2mv²).
      .replace(frac, (_, a, b, at, whole) => `${paren(a)}/${paren(b)}${/[\p{L}\p{N}\\]/u.test(whole[at + _.length] ?? '') ? ' ' : ''}`)
      .replace(sqrt, (_, a) => `√${paren(a)}`);
    if (text === before) break;
  }
  const script = (map, mark) => (_, braced, single) => {
    const part = braced ?? single;
    const chars = [...part];
    return chars.every((c) => map[c]) ? chars.map((c) => map[c]).join('') : `${mark}${paren(part)}`;
  };
  text = text
    .replace(/\^(?:\{([^{}]*)\}|([^\s{}\\]))/g, script(SUPER, '^'))
    .replace(/_(?:\{([^{}]*)\}|([^\s{}\\]))/g, script(SUB, '_'))
    .replace(/\\(left|right|big|Big|bigg|Bigg)\b/g, '')
    .replace(/\\[,;:! ]|\\q?quad\b/g, ' ')
    .replace(/\\([a-zA-Z]+)/g, (_, name) => NAMED.get(name) ?? name)
    .replace(/\\(.)/g, '$1')
    .replace(/[{}]/g, '');
  return text.replace(/\s+/g, ' ').trim();
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

// Rich card text. A plain card's text goes in as text. A Markdown card's comes as HTML that the
// server sanitised (RichText.html: a fixed set of tags, every text escaped); it is parsed into an
// inert <template>, checked against that same set (any other element becomes its text, any other
// attribute is dropped) and only then attached, so not even a server bug could add markup.
// Formulas are typeset by KaTeX, served by our server from Debian's libjs-katex, as MathML: no
// inline styles, so the CSP stays strict. Without KaTeX a formula stays readable as LaTeX.

import { t } from './i18n.js';
import { loadStylesheet } from './ui.js';

const TAGS = new Set(['P', 'BR', 'STRONG', 'EM', 'CODE', 'PRE', 'UL', 'OL', 'LI', 'TABLE', 'THEAD', 'TBODY', 'TR', 'TH', 'TD', 'SPAN', 'DIV']);
const CLASSES = new Set(['math', 'math-display', 'align-left', 'align-center', 'align-right']);
const KATEX_URL = '/assets/vendor/katex/katex.min.js';

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
  return card?.shown?.expected ?? cardPlainText(card, 'answer');
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
}

/** The card's `field` as plain text (for labels and short lists): the source for a plain card,
 * the rendered text's words for a rich one. */
export function cardPlainText(card, field) {
  const truth = card?.kind === 'trueFalse' && field === 'answer';
  const rich = card?.format === 'markdown' && !truth ? card.rendered?.[field] : null;
  if (rich == null) return sideText(card, field);
  const template = document.createElement('template');
  template.innerHTML = rich;
  return template.content.textContent.replace(/\s+/g, ' ').trim();
}

function clean(parent) {
  for (const node of [...parent.childNodes]) {
    if (node.nodeType === Node.TEXT_NODE) continue;
    if (node.nodeType !== Node.ELEMENT_NODE || !TAGS.has(node.tagName)) {
      node.replaceWith(document.createTextNode(node.textContent || ''));
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

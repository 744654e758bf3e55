// Auto-escaping tagged template. Every interpolated value is escaped unless it is itself the
// result of `html`, so user text (questions, answers, stack names) can never become markup.
// Event handlers are attached after rendering (the CSP forbids inline handlers).

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escapes a value for use in element content or a quoted attribute. */
function escape(value) {
  return String(value).replace(/[&<>"'`]/g, (ch) => ESCAPES[ch]);
}

class SafeHTML {
  constructor(text) { this.text = text; }
  toString() { return this.text; }
}

function part(value) {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHTML) return value.text;
  if (Array.isArray(value)) return value.map(part).join('');
  return escape(value);
}

/** Tagged template: `html\`<p>${userText}</p>\`` returns escaped markup. */
export function html(strings, ...values) {
  let out = strings[0];
  for (let i = 0; i < values.length; i += 1) out += part(values[i]) + strings[i + 1];
  return new SafeHTML(out);
}

/** Replaces the children of `el` with the markup; applies colours (inline styles are blocked). */
export function render(el, markup) {
  if (!(markup instanceof SafeHTML)) throw new TypeError('render() takes html`` results only');
  el.innerHTML = markup.text;
  applyColors(el);
  return el;
}

const HEX = /^#[0-9a-f]{6}$/i;

/** Elements with `data-color` get `--c` (the colour) and `--on-c` (a readable text colour). */
export function applyColors(root) {
  for (const el of root.querySelectorAll('[data-color]')) {
    const color = el.dataset.color;
    if (!HEX.test(color)) continue;
    el.style.setProperty('--c', color);
    el.style.setProperty('--on-c', readableOn(color));
  }
}

/** Black or white, whichever contrasts more with the background (WCAG relative luminance). */
export function readableOn(hex) {
  const channel = (i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return (l + 0.05) / 0.05 > 1.05 / (l + 0.05) ? '#0b1220' : '#ffffff';
}


// Small shared UI pieces: toasts, confirmation dialogs, error texts, busy buttons, icons, saving a
// downloaded file.

import { html } from './html.js';
import { t } from './i18n.js';

/** Shows a short message in the polite live region (screen readers hear it too). */
export function toast(message, kind = 'success') {
  const host = document.getElementById('toasts');
  if (!host) return;
  // One message at a time: a new one replaces the old, so toasts never pile up over content.
  host.replaceChildren();
  const el = document.createElement('div');
  el.className = `toast toast-${kind}`;
  el.textContent = message;
  host.append(el);
  setTimeout(() => el.classList.add('toast-out'), 3600);
  setTimeout(() => el.remove(), 4000);
}

/**
 * A modal confirmation; resolves true when the user confirms. Focus returns where it was.
 * `danger`: a red confirm button; `warning` (with `danger: false`): a warning sign over a normal one.
 */
export async function confirmDialog({ title, text, confirmLabel, danger = true, warning = false }) {
  const { openModal } = await import('../components/modal-dialog/modal-dialog.js');
  const modal = openModal(html`
      <form method="dialog" class="dialog-body">
        <div class="dialog-icon ${danger ? 'dialog-icon-danger' : warning ? 'dialog-icon-warning' : ''}" aria-hidden="true">${icon(danger || warning ? 'alert' : 'check')}</div>
        <h2 id="confirm-title" class="dialog-title">${title}</h2>
        <p id="confirm-text" class="muted">${text}</p>
        <div class="dialog-actions">
          <button class="btn btn-secondary" value="cancel" autofocus>${t('cancel')}</button>
          <button class="btn ${danger ? 'btn-danger' : 'btn-primary'}" value="ok" data-confirm>${confirmLabel}</button>
        </div>
      </form>`, { labelledBy: 'confirm-title', describedBy: 'confirm-text' });
  return (await modal.done) === 'ok';
}

/** A user-facing sentence for an error from the API client. */
export function errorText(error, fallbackKey = 'error.generic') {
  if (!error) return t(fallbackKey);
  if (error.status === 0) return t('error.network');
  if (error.status === 429) return t('error.rateLimited', { count: error.retryAfter || 30 });
  if (error.status === 404) return t('error.notFound');
  if (error.code === 'database_busy') return t('error.busy');
  return t(fallbackKey);
}

/**
 * Speaks `text` in a polite live region (`role="status"`). The region is emptied first and filled
 * a moment later: a fresh text node is announced even when the message repeats.
 */
export function announce(region, text) {
  if (!region) return;
  region.textContent = '';
  setTimeout(() => { region.textContent = text; }, 50);
}

/** Disables a button while work runs and shows a spinner in it. */
export function setBusy(button, busy) {
  if (!button) return;
  button.disabled = busy;
  button.classList.toggle('is-busy', busy);
  button.setAttribute('aria-busy', String(busy));
}

/** Saves a file fetched from the API (a stack's export, a backup) as a download named `name`. */
export function saveFile(blob, name) {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** Marks a field invalid with a message under it (or clears it). */
export function fieldError(input, message) {
  const id = `${input.id}-error`;
  let el = document.getElementById(id);
  if (!message) {
    input.removeAttribute('aria-invalid');
    el?.remove();
    input.setAttribute('aria-describedby', (input.dataset.describedby || '').trim());
    return;
  }
  if (!el) {
    el = document.createElement('p');
    el.id = id;
    el.className = 'field-error';
    (input.closest('.field') || input.parentElement).append(el);
  }
  el.textContent = message;
  input.setAttribute('aria-invalid', 'true');
  input.setAttribute('aria-describedby', `${input.dataset.describedby || ''} ${id}`.trim());
}

/** Loading placeholder for a region. */
export const loadingView = (text) => html`
  <div class="state state-loading" role="status"><span class="spinner" aria-hidden="true"></span><span>${text}</span></div>`;

/**
 * A page mount whose error view can retry: `mountPage(root, ctx, reload)` renders the page and
 * returns its clean-up; `reload` mounts it again, after ending the mount before (its listeners,
 * timers, aborts). The returned mount hands the router a clean-up that always reaches the latest
 * mount (a retried match game's clock, a session's key listener).
 */
export const retryable = (mountPage) => async (root, ctx) => {
  let cleanup;
  const end = () => { const before = cleanup; cleanup = undefined; before?.(); };
  const load = async () => {
    end();
    cleanup = await mountPage(root, ctx, load);
  };
  await load();
  return end;
};

/** Error placeholder with a retry button (`data-retry`). */
export const errorView = (text) => html`
  <div class="state state-error" role="alert">
    <span class="state-icon" aria-hidden="true">${icon('alert')}</span>
    <p>${text}</p>
    <button type="button" class="btn btn-secondary" data-retry>${t('retry')}</button>
  </div>`;

const PATHS = {
  plus: 'M12 5v14M5 12h14',
  chevron: 'm9 6 6 6-6 6',
  back: 'm15 6-6 6 6 6',
  alert: 'M12 9v4m0 4h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z',
  check: 'm5 12 5 5L20 7',
  trash: 'M4 7h16M10 11v6m4-6v6M6 7l1 13a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1l1-13M9 7V4h6v3',
  pencil: 'm4 20 4-1 11-11-3-3L5 16l-1 4Zm10-13 3 3',
  play: 'M7 4v16l13-8L7 4Z',
  sparkles: 'M12 3v4m0 10v4M3 12h4m10 0h4M6 6l2 2m8 8 2 2M6 18l2-2m8-8 2-2',
  search: 'm21 21-4.3-4.3M10.5 18a7.5 7.5 0 1 1 0-15 7.5 7.5 0 0 1 0 15Z',
  logout: 'M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4m7 14 5-5-5-5m5 5H9',
  globe: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm-9-9h18M12 3a14 14 0 0 1 0 18M12 3a14 14 0 0 0 0 18',
  cards: 'M7 4h10a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2Zm2 5h6m-6 4h4',
  file: 'M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8l-5-5Zm0 0v5h5',
  upload: 'M12 15V4m-4 4 4-4 4 4M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3',
  download: 'M12 4v11m-4-4 4 4 4-4M4 15v3a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-3',
  camera: 'M4 8h3l2-3h6l2 3h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1Zm8 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Z',
  text: 'M4 6h16M4 12h16M4 18h10',
  bulb: 'M9 18h6m-5 3h4M12 3a6 6 0 0 0-3.5 10.9c.6.5 1 1.2 1 2V16h5v-.1c0-.8.4-1.5 1-2A6 6 0 0 0 12 3Z',
  flip: 'M4 12a8 8 0 0 1 14-5.3M20 12a8 8 0 0 1-14 5.3M18 3v4h-4M6 21v-4h4',
  clock: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm0-13v4l3 2',
  chart: 'M4 20h16M7 16v-5m5 5V6m5 10v-8',
  x: 'M6 6l12 12M18 6 6 18',
  undo: 'M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11',
  list: 'M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01',
  swipe: 'M12 3v18m0-18-4 4m4-4 4 4m-4 14-4-4m4 4 4-4',
  grid: 'M4 4h7v7H4zM13 4h7v7h-7zM4 13h7v7H4zM13 13h7v7h-7z',
  up: 'm6 15 6-6 6 6',
  down: 'm6 9 6 6 6-6',
  bookmark: 'M7 3h10a1 1 0 0 1 1 1v17l-6-4-6 4V4a1 1 0 0 1 1-1Z',
  home: 'M3 11.5 12 4l9 7.5M5.5 10v10h5v-6h3v6h5V10',
  compass: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm3.5-12.5-2 5-5 2 2-5 5-2Z',
  sliders: 'M4 7h9m4 0h3M4 17h3m4 0h9M15 5v4M9 15v4',
  trophy: 'M8 4h8v6a4 4 0 0 1-8 0V4ZM8 6H5v1a3 3 0 0 0 3 3m8-4h3v1a3 3 0 0 1-3 3m-4 4v4m-4 3h8',
  star: 'm12 3.5 2.6 5.3 5.9.9-4.3 4.1 1 5.8-5.2-2.7-5.2 2.7 1-5.8-4.3-4.1 5.9-.9L12 3.5Z',
  shield: 'M12 3 5 6v5c0 4.5 3 8 7 10 4-2 7-5.5 7-10V6l-7-3Zm-3 9 2 2 4-4',
  chat: 'M20 12a8 8 0 0 1-11.7 7.1L4 20l.9-4.2A8 8 0 1 1 20 12ZM8.5 12h.01M12 12h.01M15.5 12h.01',
  // Stack icons (the API's `icon` keys; `globe` is above).
  book: 'M5 4.5A1.5 1.5 0 0 1 6.5 3H19v15H6.5A1.5 1.5 0 0 0 5 19.5v-15Zm0 15A1.5 1.5 0 0 0 6.5 21H19v-3',
  language: 'M4 4h10v8H8l-4 3V4Zm6 11v1h6l4 3v-9h-6',
  science: 'M9 3h6m-5 0v6l-5.5 9.5A1.7 1.7 0 0 0 6 21h12a1.7 1.7 0 0 0 1.5-2.5L14 9V3M7 15h10',
  math: 'M7 4v6M4 7h6m4 0h6M4.5 14.5l5 5m0-5-5 5M14 15h6m-6 4h6',
  history: 'M3 21h18M4 10h16M12 3l8 5H4l8-5ZM6 10v8m4-8v8m4-8v8m4-8v8',
  code: 'm8 8-4 4 4 4m8-8 4 4-4 4M14 5l-4 14',
  music: 'M9 18V5l11-2v13M9 18a3 3 0 1 1-6 0 3 3 0 0 1 6 0Zm11-2a3 3 0 1 1-6 0 3 3 0 0 1 6 0Z',
  art: 'M12 3a9 9 0 0 0 0 18c1 0 1.5-.7 1.5-1.5 0-1.1-1-1.4-1-2.4 0-.8.7-1.6 1.5-1.6H16a5 5 0 0 0 5-5C21 6.5 17 3 12 3ZM7.5 11h.01M10 7.5h.01m4.5 0h.01',
  health: 'M12 20s-8-4.6-8-10.4A4.4 4.4 0 0 1 12 7a4.4 4.4 0 0 1 8 2.6C20 15.4 12 20 12 20Z',
  law: 'M12 4v17m-5 0h10M5 7h14M5 7l-3 6a3 3 0 0 0 6 0L5 7Zm14 0-3 6a3 3 0 0 0 6 0l-3-6Z',
  business: 'M4 7h16a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1Zm5 0V5a1 1 0 0 1 1-1h4a1 1 0 0 1 1 1v2M3 13h18',
};

/** The icons a stack can carry (the API's `icon` values), in the order the picker shows them. */
export const STACK_ICONS = ['book', 'language', 'science', 'math', 'history', 'code', 'music', 'art', 'health', 'law', 'business', 'globe'];

/** Adds icons that only some screens need (they register theirs before rendering). */
export function defineIcons(paths) {
  Object.assign(PATHS, paths);
}

/** An inline SVG icon (markup is ours, never user data). */
export function icon(name) {
  return html`<svg class="icon" viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><path d="${PATHS[name] || ''}"/></svg>`;
}

/** The one back link of every page: the back arrow (shown on phones) and the parent page's name. */
export const backLink = (href, label) =>
  html`<a href="${href}" class="crumb-back">${icon('back')}<span>${label}</span></a>`;

/** A form's "Zurück" button, with the same back arrow. */
export const backButton = (href) =>
  html`<a class="btn btn-secondary" href="${href}">${icon('back')}<span>${t('back')}</span></a>`;

/** The breadcrumb of a page under the dashboard: Stapel [/ <current page>]. */
export function stacksBreadcrumb(current) {
  return html`
      <nav class="breadcrumb" aria-label="Breadcrumb">
        ${backLink('/app/stacks', t('detail.crumbStacks'))}
        ${current ? html`<span class="crumb-sep hide-sm" aria-hidden="true">/</span>
        <span class="hide-sm" aria-current="page">${current}</span>` : ''}
      </nav>`;
}

/** The breadcrumb of the pages inside a stack: Stapel / <stack> [/ <current page>]. */
export function stackBreadcrumb(stack, stackUrl, current) {
  return html`
      <nav class="breadcrumb" aria-label="Breadcrumb">
        <a href="/app/stacks" class="hide-sm">${t('detail.crumbStacks')}</a>
        <span class="crumb-sep hide-sm" aria-hidden="true">/</span>
        ${backLink(stackUrl, stack.name)}
        ${current ? html`<span class="crumb-sep hide-sm" aria-hidden="true">/</span>
        <span class="hide-sm" aria-current="page">${current}</span>` : ''}
      </nav>`;
}

const sheets = new Map();

/** Adds a stylesheet the first screen does not need; resolves once it applies (or failed). */
export function loadStylesheet(href) {
  if (!sheets.has(href)) {
    sheets.set(href, new Promise((resolve) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = href;
      link.addEventListener('load', resolve, { once: true });
      link.addEventListener('error', resolve, { once: true });
      document.head.append(link);
    }));
  }
  return sheets.get(href);
}

/** A decorative progress ring (SVG attributes: the CSP forbids style attributes), 0 … 1. */
export function ring(share, { size = 44, stroke = 5, className = '' } = {}) {
  const r = (size - stroke) / 2;
  const c = 2 * Math.PI * r;
  const filled = Math.max(0, Math.min(1, Number(share) || 0)) * c;
  const mid = size / 2;
  return html`<svg class="ring ${className}" viewBox="0 0 ${size} ${size}" width="${size}" height="${size}" aria-hidden="true" focusable="false">
    <circle class="ring-track" cx="${mid}" cy="${mid}" r="${r}" fill="none" stroke-width="${stroke}"/>
    <circle class="ring-value" cx="${mid}" cy="${mid}" r="${r}" fill="none" stroke-width="${stroke}" stroke-linecap="round"
      stroke-dasharray="${filled.toFixed(2)} ${c.toFixed(2)}" transform="rotate(-90 ${mid} ${mid})" ${filled > 0 ? '' : 'hidden'}/>
  </svg>`;
}

// Client-side routes under /app/… (History API). Each view is an ES module loaded on demand
// exporting `mount(root, ctx)`, which may return a clean-up function.

import { session } from './api/client.js';

const ROUTES = [
  { re: /^\/app\/?$/, redirect: () => (session.token() ? '/app/home' : '/app/login') },
  { re: /^\/app\/home$/, view: 'home' },
  { re: /^\/app\/welcome$/, view: 'welcome' },
  { re: /^\/app\/settings$/, view: 'settings' },
  { re: /^\/app\/leaderboard$/, view: 'leaderboard' },
  { re: /^\/app\/login$/, view: 'auth', public: true, props: { mode: 'login' } },
  { re: /^\/app\/register$/, view: 'auth', public: true, props: { mode: 'register' } },
  // Signed in too: a provider's account sets its first password there.
  { re: /^\/app\/forgot$/, view: 'password-reset', public: true, signedInToo: true, props: { mode: 'forgot' } },
  // A reset link works in a browser where someone is signed in, too (it signs in its account).
  { re: /^\/app\/reset$/, view: 'password-reset', public: true, signedInToo: true, props: { mode: 'reset' } },
  { re: /^\/app\/stacks$/, view: 'dashboard' },
  { re: /^\/app\/stacks\/new$/, view: 'stack-form' },
  { re: /^\/app\/import$/, view: 'import' },
  { re: /^\/app\/stacks\/([\w-]+)$/, view: 'stack-detail', keys: ['stackId'] },
  { re: /^\/app\/stacks\/([\w-]+)\/edit$/, view: 'stack-form', keys: ['stackId'] },
  { re: /^\/app\/stacks\/([\w-]+)\/learn$/, view: 'learn', keys: ['stackId'] },
  { re: /^\/app\/stacks\/([\w-]+)\/study$/, view: 'study', keys: ['stackId'] },
  { re: /^\/app\/stacks\/([\w-]+)\/feed$/, view: 'feed', keys: ['stackId'] },
  { re: /^\/app\/stacks\/([\w-]+)\/match$/, view: 'match', keys: ['stackId'] },
  { re: /^\/app\/shared\/([\w-]+)$/, view: 'shared', keys: ['token'], public: true, signedInToo: true },
  // The OAuth consent of an MCP client; signed out, the login (or sign-up) comes back here.
  { re: /^\/app\/oauth\/authorize$/, view: 'oauth-consent' },
  { re: /^\/app\/explore$/, view: 'explore' },
  { re: /^\/app\/explore\/([\w-]+)$/, view: 'explore-entry', keys: ['entryId'] },
  { re: /^\/app\/study$/, view: 'study' },
  { re: /^\/app\/learn$/, view: 'learn' },
  { re: /^\/app\/feed$/, view: 'feed' },
  { re: /^\/app\/stacks\/([\w-]+)\/create$/, view: 'magic', keys: ['stackId'] },
  { re: /^\/app\/stats$/, view: 'stats' },
  { re: /^\/app\/stacks\/([\w-]+)\/stats$/, view: 'stats', keys: ['stackId'] },
  { re: /^\/app\/stacks\/([\w-]+)\/cards\/new$/, view: 'card-form', keys: ['stackId'] },
  { re: /^\/app\/stacks\/([\w-]+)\/cards\/([\w-]+)$/, view: 'card-form', keys: ['stackId', 'cardId'] },
];

/** Where a signed-in learner starts. */
export const HOME = '/app/home';

let cleanup = null;
let generation = 0;
let hooks = { beforeMount: () => {}, afterMount: () => {} };

/** Where the user is now, path and query, e.g. `/app/stacks/1?page=2`. */
export const currentPath = () => location.pathname + location.search;

/**
 * Goes to `url` inside the app (push or replace a history entry) and renders it. Each entry
 * remembers the page it was opened from (`history.state.from`), which `leaveTo` uses.
 */
export function navigate(url, { replace = false } = {}) {
  if (replace) history.replaceState({ from: history.state?.from ?? null }, '', url);
  else history.pushState({ from: currentPath() }, '', url);
  return route();
}

const pathOf = (url) => new URL(url, location.origin).pathname.replace(/\/+$/, '');

/**
 * Leaves a finished page (a saved form, a deleted card or stack, accepted drafts) for `url`, so
 * that Back never returns to it: when the user came from `url` (its query aside, e.g. a search),
 * this steps back in history to that entry; otherwise the finished page's entry is replaced.
 */
export function leaveTo(url) {
  const from = history.state?.from;
  if (from && pathOf(from) === pathOf(url)) {
    history.back(); // popstate renders the page, with its query as the user left it
    return Promise.resolve();
  }
  return navigate(url, { replace: true });
}

/** Starts routing: renders the current URL and follows back/forward and in-app links. */
export function startRouter(options) {
  hooks = { ...hooks, ...options };
  addEventListener('popstate', () => route());
  document.addEventListener('click', (event) => {
    const link = event.target.closest('a[href]');
    if (!link || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin || !url.pathname.startsWith('/app')) return;
    event.preventDefault();
    navigate(url.pathname + url.search + url.hash);
  });
  return route();
}

/** Renders the current URL again (e.g. after a language switch). */
export async function route() {
  const token = ++generation;
  const path = location.pathname.replace(/\/+$/, '') || '/';
  const query = new URLSearchParams(location.search);
  const match = ROUTES.map((r) => ({ r, m: r.re.exec(path) })).find((x) => x.m);
  if (match?.r.redirect) return navigate(match.r.redirect(), { replace: true });
  if (match && !match.r.public && !session.token()) {
    return navigate(`/app/login?next=${encodeURIComponent(currentPath())}`, { replace: true });
  }
  if (match?.r.public && !match.r.signedInToo && session.token() && !query.has('next')) {
    return navigate(HOME, { replace: true });
  }
  const viewName = match ? match.r.view : 'not-found';
  const params = {};
  (match?.r.keys || []).forEach((key, i) => { params[key] = decodeURIComponent(match.m[i + 1]); });
  let module;
  try {
    module = await import(`./views/${viewName}.js`);
  } catch {
    // Offline and not cached yet: say so instead of leaving a blank page.
    module = await import('./views/offline.js');
  }
  if (token !== generation) return; // a newer navigation won
  if (cleanup) { try { cleanup(); } catch { /* a failing clean-up must not block routing */ } }
  cleanup = null;
  const root = document.getElementById('main');
  hooks.beforeMount({ view: viewName, isPublic: Boolean(match?.r.public) });
  root.replaceChildren();
  // `current()`: whether this page is still the one shown (a slow page checks it after loading,
  // so it never paints over the page the user went on to).
  const current = () => token === generation;
  const result = await module.mount(root, { params, query, props: match?.r.props || {}, navigate, current });
  if (token !== generation) { if (typeof result === 'function') result(); return; }
  cleanup = typeof result === 'function' ? result : null;
  hooks.afterMount({ view: viewName, root });
}

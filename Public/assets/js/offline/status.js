// The offline bar under the app header and what drives the local copy: it says when the app is
// offline and how many changes wait ("Offline – 3 Änderungen warten"), offers "Jetzt abgleichen"
// (keyboard reachable), shows the notices of a sync (a card edit that lost to a later one, reviews
// of deleted cards) until they are dismissed, and sends the outbox at start, on the `online` event,
// from the button and every minute while changes wait. The library and home refresh the local
// copy. app.js loads this module after the first page (at once when offline).

import { html, render } from '../html.js';
import { loadStrings, t } from '../i18n.js';
import { session } from '../api/client.js';
import { confirmDialog, defineIcons, icon, loadStylesheet, toast } from '../ui.js';
import { signOut as signOutAccount } from '../account.js';
import { currentStore, dropUser } from './store.js';
import { flush, refresh } from './sync.js';

defineIcons({
  offline: 'M3 3l18 18M8.5 8.6A6 6 0 0 0 6 13.5a4.5 4.5 0 0 0 .5 8.5H17m3-2.2A4 4 0 0 0 17 13a5.5 5.5 0 0 0-8-4.4',
  sync: 'M4 12a8 8 0 0 1 14-5.3M20 12a8 8 0 0 1-14 5.3M18 3v4h-4M6 21v-4h4',
});

const RETRY_MS = 60_000;
let bar = null;
let started = null;
let pending = 0;
let syncing = false;
let reachable = true; // the last request to the server got an answer
let notices = [];
let retry = null;

const offline = () => navigator.onLine === false || !reachable;

/** Starts once (later calls only note the view): the bar, the listeners, a first sync. The library
 * and home also refresh the local copy. */
export async function start(view) {
  try {
    await (started ??= setup());
    if (view === 'dashboard' || view === 'home') await refreshNow();
  } catch {
    started = null; // offline before the strings were cached: the next page tries again
  }
}

async function setup() {
  await Promise.all([loadStrings('more'), loadStylesheet('/assets/css/offline.css')]);
  if (bar) return;
  // The live regions stay in place (only their contents change), so screen readers hear each change.
  bar = document.createElement('div');
  bar.className = 'net-status is-idle';
  bar.id = 'net-status';
  render(bar, html`
    <div class="net-status-inner">
      <p class="net-status-text"><span class="net-status-icon" aria-hidden="true"></span><span id="net-status-text" role="status" aria-live="polite"></span></p>
      <button type="button" class="btn btn-secondary btn-sm" data-sync hidden>${icon('sync')}<span></span></button>
      <ul class="net-notices" aria-live="polite" aria-relevant="additions"></ul>
    </div>`);
  document.querySelector('app-header')?.after(bar);
  bar.addEventListener('click', (event) => {
    if (event.target.closest('[data-sync]')) syncNow({ user: true });
    const dismiss = event.target.closest('[data-dismiss]');
    if (dismiss) {
      notices = notices.filter((n) => String(n.id) !== dismiss.dataset.dismiss);
      paint();
      const next = bar.querySelector('[data-dismiss]');
      (next || document.getElementById('main'))?.focus({ preventScroll: true });
    }
  });
  addEventListener('online', () => { reachable = true; syncNow(); });
  addEventListener('offline', () => paint());
  document.addEventListener('offline-change', (event) => {
    const { sync, review, edit, queued } = event.detail || {};
    if (review || edit || queued) {
      // Rated or edited here: the server could not be reached.
      reachable = false;
      scheduleRetry();
    }
    if (sync) noteSync(sync);
    count();
  });
  document.addEventListener('session-change', async () => {
    notices = [];
    // A time zone changed in the settings counts for offline days at once.
    const zone = session.user()?.timeZone;
    if (zone) await (await currentStore())?.setMeta('timeZone', zone).catch(() => {});
    count();
  });
  // A language switch sets <html lang> once the new strings are in.
  new MutationObserver(paint).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
  await count();
  if (pending && navigator.onLine) await syncNow();
}

/** Counts what waits in the outbox and repaints. */
async function count() {
  const store = await currentStore();
  pending = store ? await store.pendingCount().catch(() => 0) : 0;
  paint();
}

function scheduleRetry() {
  if (retry) return;
  retry = setTimeout(async () => {
    retry = null;
    if (pending && navigator.onLine) await syncNow();
    if (pending) scheduleRetry();
  }, RETRY_MS);
}

/** Sends the outbox now; afterwards the local copy is refreshed from the server. */
export async function syncNow({ user = false } = {}) {
  if (syncing || !session.token()) return;
  syncing = true;
  paint();
  try {
    const result = await flush();
    if (result.complete && (result.sent || result.edits || result.kept.length || result.gone.length)) {
      await refresh({ force: true }).catch(() => {});
    }
    if (user && !result.complete) toast(t('offline.stillOffline'), 'error');
  } finally {
    syncing = false;
    await count();
  }
}

async function refreshNow() {
  if (navigator.onLine === false) return;
  try {
    await refresh();
    reachable = true;
  } catch (error) {
    if (error.status === 0) reachable = false;
  }
  paint();
}

/** Turns a sync's result into notices (kept until dismissed) and a short toast. */
function noteSync(result) {
  if (result.error) reachable = result.error.status !== 0 ? reachable : false;
  else reachable = true;
  // The card is named by the question of the version that stays.
  const question = (edit, mine = false) =>
    ((mine ? edit.changes?.question : null) || edit.server?.question || edit.changes?.question || '').slice(0, 80);
  const add = (text) => notices.push({ id: `${Date.now()}-${notices.length}`, text });
  for (const edit of result.kept) add(t('offline.keptServer', { question: question(edit) }));
  for (const edit of result.replaced) add(t('offline.keptMine', { question: question(edit, true) }));
  for (const edit of result.gone) add(t('offline.editGone', { question: question(edit) }));
  if (result.dropped.length) add(t('offline.droppedReviews', { count: result.dropped.length }));
  const refusedEdits = result.refused.filter((e) => e.kind === 'edit');
  const refusedReviews = result.refused.length - refusedEdits.length;
  for (const edit of refusedEdits) add(t('offline.editRefused', { question: question(edit) }));
  if (refusedReviews) add(t('offline.refusedReviews', { count: refusedReviews }));
  const done = result.sent + result.edits;
  if (result.complete && done) toast(t('offline.synced', { count: done }));
}

/** The bar as things are: collapsed when online with nothing waiting and no notice. */
function paint() {
  if (!bar) return;
  const away = offline();
  let text = '';
  if (syncing) text = t('offline.syncing');
  else if (away) text = pending ? t('offline.offlinePending', { count: pending }) : t('offline.offline');
  else if (pending) text = t('offline.pending', { count: pending });
  bar.classList.toggle('is-idle', !text && !notices.length);
  bar.classList.toggle('is-offline', away);
  const live = bar.querySelector('#net-status-text');
  if (live.textContent !== text) live.textContent = text;
  render(bar.querySelector('.net-status-icon'), text ? icon(away ? 'offline' : 'sync') : html``);
  const button = bar.querySelector('[data-sync]');
  // The button where it can help: changes wait and the browser has a network (the server may not).
  button.hidden = !(pending > 0 && !syncing && navigator.onLine !== false);
  button.querySelector('span').textContent = t('offline.syncNow');
  // Notices: new ones are added, dismissed ones removed, the others stay as they are.
  const list = bar.querySelector('.net-notices');
  const shown = new Set(notices.map((n) => n.id));
  for (const item of [...list.children]) if (!shown.has(item.dataset.id)) item.remove();
  const present = new Set([...list.children].map((item) => item.dataset.id));
  for (const notice of notices) {
    if (present.has(notice.id)) continue;
    const item = document.createElement('li');
    item.className = 'net-notice';
    item.dataset.id = notice.id;
    render(item, html`<span>${notice.text}</span><button type="button" class="btn btn-ghost btn-sm" data-dismiss="${notice.id}">${t('offline.dismiss')}</button>`);
    list.append(item);
  }
}

/**
 * Signs out (account.js) and deletes this user's local copy. When offline changes wait, they are
 * sent first; if some still cannot be, the learner is asked whether to sign out anyway. Resolves
 * false when the learner stays signed in.
 */
export async function signOut() {
  const userId = session.user()?.id;
  if (!(await beforeSignOut()) || !(await signOutAccount())) return false;
  await forget(userId);
  return true;
}

async function beforeSignOut() {
  await count();
  if (!pending) return true;
  if (navigator.onLine) await syncNow();
  if (!pending) return true;
  await loadStrings('more');
  return confirmDialog({
    title: t('offline.signOutTitle'),
    text: t('offline.signOutText', { count: pending }),
    confirmLabel: t('offline.signOutConfirm'),
  });
}

/** After signing out: the user's local copy is deleted, the bar empties. */
async function forget(userId) {
  await dropUser(userId);
  notices = [];
  pending = 0;
  paint();
}

// The signed-in account beyond its token: the learner's settings (`GET`/`PATCH /me/settings`,
// kept in memory; theme and focus mode also in localStorage for the first paint), the colour
// theme and signing out on the server. Changes are announced as `settings-change` and
// `session-change` events on `document`; the header and the open screen listen.
// ("Konto sichern" for a guest is upgrade-dialog.js, loaded when asked for.)

import { loadStrings, t } from './i18n.js';
import { api, session } from './api/client.js';
import { confirmDialog, loadStylesheet } from './ui.js';

const PREFS = 'fc.prefs';
/** Colour themes a mystery box can hold (`data-theme` on <html>, colours in base.css). */
export const THEMES = ['meadow', 'dusk', 'aurora', 'ocean', 'gold'];

let current = null;
let pending = null;
let generation = 0;

/** What the first paint may use before the settings arrived: {theme, focusMode} of this user. */
function remembered() {
  try {
    const saved = JSON.parse(localStorage.getItem(PREFS)) || {};
    return saved.userId && saved.userId === session.user()?.id ? saved : {};
  } catch {
    return {};
  }
}

/** The settings as last loaded or saved, or null. */
export const settingsNow = () => current;

/** Whether focus mode is on (hides XP, levels, streaks, challenges, box, achievements, leaderboards). */
export const focusMode = () => (current ? Boolean(current.focusMode) : Boolean(remembered().focusMode));

/** Whether the signed-in account is a guest (no mail, no password). */
export const isGuest = () => Boolean(session.user()?.isGuest);

/** Shows a theme (`null`: the standard colours; themes.css comes with the first theme). */
export function applyTheme(theme) {
  if (THEMES.includes(theme)) {
    loadStylesheet('/assets/css/themes.css');
    document.documentElement.dataset.theme = theme;
  } else {
    delete document.documentElement.dataset.theme;
  }
}

function keep(settings) {
  current = settings;
  localStorage.setItem(PREFS, JSON.stringify({
    userId: session.user()?.id, theme: settings.theme ?? null, focusMode: Boolean(settings.focusMode),
  }));
  applyTheme(settings.theme);
  document.dispatchEvent(new CustomEvent('settings-change', { detail: settings }));
  return settings;
}

/** The settings (loaded once per session; `force` loads them again). Null when signed out. */
export function loadSettings({ force = false } = {}) {
  if (!session.token()) return Promise.resolve(null);
  if (current && !force) return Promise.resolve(current);
  if (!pending) {
    const mine = generation;
    pending = api.settings()
      .then((settings) => (mine === generation ? keep(settings) : settings))
      .finally(() => { pending = null; });
  }
  return pending;
}

/** Saves some settings; resolves with all of them. */
export async function saveSettings(changes) {
  const mine = generation;
  const settings = await api.updateSettings(changes);
  return mine === generation ? keep(settings) : settings;
}

/** Applies what is remembered for the signed-in user (at start, before anything is loaded). */
export function restoreAppearance() {
  applyTheme(remembered().theme);
}

/** Forgets the settings of a user who signed out (another may sign in next). */
export function forgetSettings() {
  generation += 1;
  current = null;
  pending = null;
  localStorage.removeItem(PREFS);
  applyTheme(null);
  document.dispatchEvent(new CustomEvent('session-change'));
}

/** Keeps a new session (signed in or up, an upgraded guest, a changed password) and tells the page. */
export function replaceSession(auth) {
  if (auth.user?.id !== session.user()?.id) {
    // Another account: nothing of the previous one's settings may show.
    generation += 1;
    current = null;
    pending = null;
  }
  session.save(auth);
  document.dispatchEvent(new CustomEvent('session-change'));
}

/** Keeps a changed user (name, time zone) and tells the page. */
export function updateUser(user) {
  session.saveUser({ ...session.user(), ...user });
  document.dispatchEvent(new CustomEvent('session-change'));
}

/**
 * Signs out: a guest is asked first (without an account the guest's stacks cannot be reached
 * again). The server revokes the token; a network error still ends the local session.
 * Resolves false when the guest kept the session.
 */
export async function signOut() {
  if (isGuest()) {
    await loadStrings('more').catch(() => {}); // offline: the dialog still asks
    const ok = await confirmDialog({
      title: t('guest.logoutTitle'),
      text: t('guest.logoutText'),
      confirmLabel: t('guest.logoutConfirm'),
      danger: false,
      warning: true,
    });
    if (!ok) return false;
  }
  try {
    await api.logout();
  } catch {
    // Offline or the token is refused already: the local session ends either way.
  }
  session.clear();
  forgetSettings();
  return true;
}

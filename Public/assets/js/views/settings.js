// Settings (/app/settings): profile (name, time zone: `PATCH /me`), the account (a guest secures
// it, everyone else changes the password), learning (daily goal, language, "Spielelemente", focus
// mode), reminders (Web Push when the browser can, else the in-app note on the home screen), the
// leaderboard opt-in, the onboarding answers, the colour theme, data and backup (backup-panel.js:
// the account as a download, a backup restored into an account without stacks) and deleting the
// account. Switches and choices save at once; fields save with their form's button.

import { html, render } from '../html.js';
import { LANGUAGES, currentLanguage, rememberLanguage, t } from '../i18n.js';
import { api, hasCode, session } from '../api/client.js';
import {
  THEMES, forgetSettings, gameElements, isGuest, loadSettings, replaceSession, saveSettings, updateUser,
} from '../account.js';
import { openUpgradeDialog } from '../upgrade-dialog.js';
import { backupPanel, mountBackupPanel } from '../backup-panel.js';
import { errorText, errorView, fieldError, icon, loadStylesheet, loadingView, retryable, setBusy, toast } from '../ui.js';
import { loadProgressAssets, stale, userZone } from '../progress-ui.js';

const GOAL_MIN = 1;
const GOAL_MAX = 500;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** Appearances of "Darstellung", kept per device (not per account) in localStorage. */
const APPEARANCES = ['light', 'dark', 'system', 'glass'];
const APPEARANCE = 'fc.appearance';

/** This device's appearance ('system' unless another was chosen). */
function appearance() {
  let saved = null;
  try { saved = localStorage.getItem(APPEARANCE); } catch { saved = null; }
  return APPEARANCES.includes(saved) ? saved : 'system';
}

/** Keeps an appearance on this device and shows it (appearance.js's `fcAppearance`, which also
 * applies it before the first paint of every page and in other tabs). */
function setAppearance(value) {
  if (value === 'system') localStorage.removeItem(APPEARANCE);
  else localStorage.setItem(APPEARANCE, value);
  window.fcAppearance?.(value);
}

/** The result of a restore, for the page drawn again right after it (with the restored settings). */
let justRestored = null;

/** Every IANA zone the browser knows (the current one included even when it does not). */
function timeZones(current) {
  let zones = [];
  try { zones = Intl.supportedValuesOf('timeZone'); } catch { zones = []; }
  if (current && !zones.includes(current)) zones = [current, ...zones];
  return zones;
}

/** The VAPID key (base64url) as bytes for `PushManager.subscribe`. */
function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

const withTimeout = (promise, ms) => Promise.race([
  promise, new Promise((_, reject) => { setTimeout(() => reject(new Error('timeout')), ms); }),
]);

/** The service worker's push subscription, or null (no worker, no push, nothing subscribed). */
async function currentSubscription() {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return null;
  try {
    const registration = await withTimeout(navigator.serviceWorker.ready, 3000);
    return await registration.pushManager.getSubscription();
  } catch {
    return null;
  }
}

/**
 * Asks for notifications and subscribes this browser to the server's reminders. Resolves with
 * 'subscribed', 'denied' (the learner or the browser said no) or 'unavailable' (no push service
 * here, e.g. a headless browser): the home screen's note reminds instead.
 */
export async function subscribeToReminders() {
  if (!('Notification' in window) || !('serviceWorker' in navigator) || !('PushManager' in window)) return 'unavailable';
  let permission = Notification.permission;
  if (permission === 'default') {
    try { permission = await Notification.requestPermission(); } catch { permission = 'denied'; }
  }
  if (permission !== 'granted') return 'denied';
  try {
    const registration = await withTimeout(navigator.serviceWorker.ready, 5000);
    let subscription = await registration.pushManager.getSubscription();
    if (!subscription) {
      const { publicKey } = await api.pushKey();
      subscription = await withTimeout(registration.pushManager.subscribe({
        userVisibleOnly: true, applicationServerKey: keyBytes(publicKey),
      }), 10_000);
    }
    await api.addPushSubscription(subscription.toJSON());
    return 'subscribed';
  } catch (error) {
    if (error?.status === 401) throw error;
    return 'unavailable';
  }
}

/** Ends this browser's push subscription (the server forgets it too). */
async function unsubscribeFromReminders() {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try { await api.removePushSubscription(subscription.endpoint); } catch { /* it expires on the server */ }
  try { await subscription.unsubscribe(); } catch { /* gone already */ }
}

export const mount = retryable(mountSettings);

async function mountSettings(root, ctx, reload) {
  const restored = justRestored;
  justRestored = null;
  render(root, loadingView(t('loading')));
  loadStylesheet('/assets/css/glass.css'); // so that choosing Glas shows it at once (scoped to it)
  let settings;
  try {
    await loadProgressAssets();
    settings = await loadSettings({ force: true });
  } catch (error) {
    if (error.status === 401 || stale(ctx)) return undefined;
    render(root, html`<section class="page page-narrow">${errorView(errorText(error, 'settings.error'))}</section>`);
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  if (stale(ctx)) return undefined;
  const controller = new AbortController();
  const { signal } = controller;
  const user = session.user() || {};
  const guest = isGuest();
  const zone = user.timeZone || userZone();
  const onboarding = settings.onboarding || {};

  render(root, html`
    <section class="page page-narrow settings">
      <header class="page-header"><div><h1>${t('settings.title')}</h1><p class="muted">${t('settings.lead')}</p></div></header>

      <section class="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">${t('settings.profile')}</h2>
        <form id="profile-form" class="stack-form" novalidate>
          <div class="field">
            <label for="profile-name">${t('auth.name')}</label>
            <input id="profile-name" name="name" type="text" autocomplete="name" maxlength="100" value="${user.name ?? ''}">
          </div>
          <div class="field">
            <label for="profile-zone">${t('settings.timeZone')}</label>
            <select id="profile-zone" name="timeZone" aria-describedby="profile-zone-help" data-describedby="profile-zone-help">
              ${timeZones(zone).map((z) => html`<option value="${z}" ${z === zone ? 'selected' : ''}>${z.replace(/_/g, ' ')}</option>`)}
            </select>
            <p class="help" id="profile-zone-help">${t('settings.timeZoneHelp')}</p>
          </div>
          <div class="form-actions"><button type="submit" class="btn btn-primary">${t('settings.saveProfile')}</button></div>
        </form>
      </section>

      <section class="panel" aria-labelledby="account-title">
        <h2 id="account-title">${t('settings.account')}</h2>
        ${guest ? html`
          <p class="muted">${t('settings.guestText')}</p>
          <div><button type="button" class="btn btn-primary" id="secure-account">${icon('shield')}<span>${t('guest.secure')}</span></button></div>` : html`
          <p class="muted">${t('settings.mail', { mail: user.mail ?? '' })}</p>
          <form id="password-form" class="stack-form" novalidate>
            <input type="text" name="username" autocomplete="username" value="${user.mail ?? ''}" hidden>
            <div class="field">
              <label for="current-password">${t('settings.currentPassword')}</label>
              <input id="current-password" name="current" type="password" autocomplete="current-password" maxlength="72">
            </div>
            <div class="field">
              <label for="new-password">${t('settings.newPassword')}</label>
              <input id="new-password" name="next" type="password" autocomplete="new-password" maxlength="72"
                aria-describedby="new-password-help" data-describedby="new-password-help">
              <p class="help" id="new-password-help">${t('auth.passwordHint')}</p>
            </div>
            <div class="form-actions"><button type="submit" class="btn btn-primary">${t('settings.changePassword')}</button></div>
          </form>`}
      </section>

      <section class="panel" aria-labelledby="learning-title">
        <h2 id="learning-title">${t('settings.learning')}</h2>
        <form id="goal-form" class="stack-form" novalidate>
          <div class="field">
            <label for="daily-goal">${t('settings.dailyGoal')}</label>
            <div class="input-row">
              <span class="input-suffix">
                <input id="daily-goal" name="dailyGoal" type="number" inputmode="numeric" min="${GOAL_MIN}" max="${GOAL_MAX}" step="1"
                  value="${settings.dailyGoal}" aria-describedby="daily-goal-help" data-describedby="daily-goal-help">
                <span aria-hidden="true">${t('settings.cardsPerDay')}</span>
              </span>
              <button type="submit" class="btn btn-secondary">${t('save')}</button>
            </div>
            <p class="help" id="daily-goal-help">${t('settings.dailyGoalHelp')}</p>
          </div>
        </form>
        <fieldset class="choice-group" id="language-choice">
          <legend>${t('settings.language')}</legend>
          ${LANGUAGES.map((code) => html`
            <label class="choice">
              <input type="radio" name="language" value="${code}" ${currentLanguage() === code ? 'checked' : ''}>
              <span lang="${code}"><strong>${t(`settings.language.${code}`)}</strong></span>
            </label>`)}
        </fieldset>
        ${toggle('game-elements', t('settings.gameElements'), t('settings.gameElementsHelp'), settings.gameElements !== false)}
        ${toggle('focus-mode', t('settings.focusMode'), t('settings.focusModeHelp'), settings.focusMode)}
      </section>

      <section class="panel" aria-labelledby="reminders-title">
        <h2 id="reminders-title">${t('settings.reminders')}</h2>
        ${toggle('reminders', t('settings.remindersSwitch'), t('settings.remindersHelp'), settings.remindersEnabled)}
        <div class="field">
          <label for="reminder-time">${t('settings.reminderTime')}</label>
          <input id="reminder-time" type="time" value="${settings.reminderTime || '18:00'}" class="time-input" step="60">
        </div>
        <p class="small muted" id="push-status" role="status"></p>
      </section>

      <section class="panel gamified" aria-labelledby="leaderboard-title" ${gameElements() ? '' : 'hidden'}>
        <h2 id="leaderboard-title">${t('settings.leaderboard')}</h2>
        ${toggle('leaderboard', t('settings.leaderboardSwitch'), t('settings.leaderboardHelp', { name: user.name ?? '' }), settings.leaderboardOptIn)}
      </section>

      <section class="panel" aria-labelledby="onboarding-title">
        <h2 id="onboarding-title">${t('settings.onboarding')}</h2>
        <dl class="answers">
          <div><dt>${t('settings.purpose')}</dt><dd id="answer-purpose">${onboarding.purpose ? t(`purpose.${onboarding.purpose}`) : t('settings.notAnswered')}</dd></div>
          <div><dt>${t('settings.minutes')}</dt><dd id="answer-minutes">${onboarding.minutesPerDay
            ? t(onboarding.minutesPerDay >= 20 ? 'welcome.minutesMax' : 'welcome.minutes', { count: onboarding.minutesPerDay })
            : t('settings.notAnswered')}</dd></div>
          <div><dt>${t('settings.interests')}</dt><dd id="answer-interests">${(onboarding.interests || []).length ? onboarding.interests.join(', ') : t('settings.notAnswered')}</dd></div>
        </dl>
        <div class="actions">
          <a class="btn btn-secondary" href="/app/welcome?step=questions&amp;next=%2Fapp%2Fsettings">${icon('pencil')}<span>${t('settings.editAnswers')}</span></a>
          <a class="btn btn-ghost" href="/app/welcome?next=%2Fapp%2Fsettings">${t('settings.redoOnboarding')}</a>
        </div>
      </section>

      <section class="panel" aria-labelledby="appearance-title">
        <h2 id="appearance-title">${t('settings.appearance')}</h2>
        <fieldset class="theme-choice appearance-choice" id="appearance-choice" aria-describedby="appearance-help">
          <legend class="visually-hidden">${t('settings.appearance')}</legend>
          ${APPEARANCES.map((a) => html`
            <label class="theme-option">
              <input type="radio" name="appearance" value="${a}" ${appearance() === a ? 'checked' : ''}>
              <span class="appearance-swatch appearance-${a}" aria-hidden="true"></span>
              <span>${t(`appearance.${a}`)}</span>
            </label>`)}
        </fieldset>
        <p class="small muted" id="appearance-help">${t('settings.appearanceHelp')}</p>
      </section>

      <section class="panel" aria-labelledby="theme-title">
        <h2 id="theme-title">${t('settings.theme')}</h2>
        <fieldset class="theme-choice" id="theme-choice">
          <legend class="visually-hidden">${t('settings.theme')}</legend>
          ${[null, ...THEMES.filter((th) => (settings.unlockedThemes || []).includes(th))].map((th) => html`
            <label class="theme-option">
              <input type="radio" name="theme" value="${th ?? ''}" ${(settings.theme ?? null) === th ? 'checked' : ''}>
              <span class="theme-swatch theme-${th ?? 'standard'}" aria-hidden="true"></span>
              <span>${t(`theme.${th ?? 'standard'}`)}</span>
            </label>`)}
        </fieldset>
        ${(settings.unlockedThemes || []).length ? '' : html`<p class="small muted">${t('settings.themesHint')}</p>`}
      </section>

      ${backupPanel()}

      <section class="panel" aria-labelledby="delete-title">
        <h2 id="delete-title">${t('settings.delete')}</h2>
        <p class="muted">${t(guest ? 'settings.deleteGuestText' : 'settings.deleteText')}</p>
        <div><button type="button" class="btn btn-danger-ghost" id="delete-account">${icon('trash')}<span>${t('settings.deleteButton')}</span></button></div>
      </section>
    </section>`);

  const pushStatus = root.querySelector('#push-status');
  const say = (key, params) => { pushStatus.textContent = key ? t(key, params) : ''; };
  const time = root.querySelector('#reminder-time');
  time.disabled = !settings.remindersEnabled;

  /** Saves settings from a switch or choice; on failure the control shows the saved state again. */
  async function saveFrom(control, changes, restore) {
    control.disabled = true;
    try {
      settings = await saveSettings(changes);
      toast(t('settings.saved'));
      return true;
    } catch (error) {
      restore();
      if (error.status !== 401) toast(errorText(error, 'settings.saveError'), 'error');
      return false;
    } finally {
      control.disabled = false;
    }
  }

  // Profile
  root.querySelector('#profile-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = form.elements.name;
    const value = name.value.trim();
    fieldError(name, !value ? t('auth.emptyName') : value.length < 2 ? t('auth.shortName') : '');
    if (!value || value.length < 2) { name.focus(); return; }
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      updateUser(await api.updateMe({ name: value, timeZone: form.elements.timeZone.value }));
      toast(t('settings.saved'));
    } catch (error) {
      if (error.status !== 401) toast(errorText(error, 'settings.saveError'), 'error');
    } finally {
      setBusy(button, false);
    }
  }, { signal });

  // Account
  root.querySelector('#secure-account')?.addEventListener('click', async () => {
    if (await openUpgradeDialog()) reload();
  }, { signal });
  root.querySelector('#password-form')?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { current, next } = form.elements;
    fieldError(current, current.value ? '' : t('auth.emptyPassword'));
    fieldError(next, !next.value ? t('auth.emptyPassword') : next.value.length < 8 ? t('auth.shortPassword') : '');
    const invalid = form.querySelector('[aria-invalid=true]');
    if (invalid) { invalid.focus(); return; }
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      await api.changePassword(current.value, next.value);
      // A new password ends every older session, this one too: sign in again with it.
      replaceSession(await api.login(user.mail, next.value));
      form.reset();
      toast(t('settings.passwordChanged'));
    } catch (error) {
      if (error.status === 401) return;
      if (hasCode(error, 'wrong_password')) { fieldError(current, t('settings.wrongPassword')); current.focus(); return; }
      toast(errorText(error, 'settings.saveError'), 'error');
    } finally {
      setBusy(button, false);
    }
  }, { signal });

  // Learning
  root.querySelector('#goal-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = event.currentTarget.elements.dailyGoal;
    const n = Number(input.value);
    const ok = input.value.trim() !== '' && Number.isInteger(n) && n >= GOAL_MIN && n <= GOAL_MAX;
    fieldError(input, ok ? '' : t('settings.dailyGoalError', { min: GOAL_MIN, max: GOAL_MAX }));
    if (!ok) { input.focus(); return; }
    const button = event.currentTarget.querySelector('button[type=submit]');
    await saveFrom(button, { dailyGoal: n }, () => {});
  }, { signal });
  root.querySelector('#language-choice').addEventListener('change', async (event) => {
    const code = event.target.value;
    const ok = await saveFrom(event.target, { language: code }, () => {
      root.querySelector(`input[name=language][value=${currentLanguage()}]`).checked = true;
    });
    if (!ok) return;
    rememberLanguage(code);
    document.querySelector('app-header')?.dispatchEvent(new CustomEvent('language-change', { detail: code }));
  }, { signal });
  // Game elements and focus mode: the leaderboard's switch shows only while game elements can.
  for (const [id, key] of [['game-elements', 'gameElements'], ['focus-mode', 'focusMode']]) {
    const control = root.querySelector(`#${id}`);
    control.addEventListener('change', async () => {
      const on = control.checked;
      if (await saveFrom(control, { [key]: on }, () => { control.checked = !on; })) {
        root.querySelector('[aria-labelledby=leaderboard-title]')?.toggleAttribute('hidden', !gameElements());
      }
    }, { signal });
  }

  // Reminders: saved first, so the in-app note works whatever the browser can do.
  const reminders = root.querySelector('#reminders');
  const describePush = async () => {
    if (!settings.remindersEnabled) { say(''); return; }
    const subscription = await currentSubscription();
    if (signal.aborted) return;
    const granted = typeof Notification !== 'undefined' && Notification.permission === 'granted';
    say(subscription && granted ? 'settings.pushOn' : 'settings.pushInApp', { time: settings.reminderTime });
  };
  reminders.addEventListener('change', async () => {
    const on = reminders.checked;
    const changes = on ? { remindersEnabled: true, reminderTime: TIME.test(time.value) ? time.value : settings.reminderTime } : { remindersEnabled: false };
    if (!(await saveFrom(reminders, changes, () => { reminders.checked = !on; }))) return;
    time.disabled = !on;
    if (!on) { say(''); unsubscribeFromReminders(); return; }
    say('settings.pushAsking');
    let result;
    try { result = await subscribeToReminders(); } catch { return; }
    if (signal.aborted) return;
    say(result === 'subscribed' ? 'settings.pushOn' : result === 'denied' ? 'settings.pushDenied' : 'settings.pushUnavailable',
      { time: settings.reminderTime });
  }, { signal });
  time.addEventListener('change', async () => {
    if (!TIME.test(time.value)) return;
    const before = settings.reminderTime;
    if (await saveFrom(time, { reminderTime: time.value }, () => { time.value = before; })) describePush();
  }, { signal });
  describePush();

  // Leaderboard
  const board = root.querySelector('#leaderboard');
  board?.addEventListener('change', () => {
    const on = board.checked;
    saveFrom(board, { leaderboardOptIn: on }, () => { board.checked = !on; });
  }, { signal });

  // Appearance: this device only, at once, no request.
  root.querySelector('#appearance-choice').addEventListener('change', (event) => {
    setAppearance(event.target.value);
  }, { signal });

  // Theme
  root.querySelector('#theme-choice').addEventListener('change', (event) => {
    const before = settings.theme ?? '';
    saveFrom(event.target, { theme: event.target.value || null }, () => {
      root.querySelector(`input[name=theme][value="${before}"]`).checked = true;
    });
  }, { signal });

  // Data and backup: after a restore the page is drawn again, with the name, time zone and settings
  // it brought, and says what came back.
  mountBackupPanel(root.querySelector('#backup'), {
    signal,
    restored,
    onRestored(result) {
      justRestored = result;
      reload();
    },
  });

  // Delete the account
  root.querySelector('#delete-account').addEventListener('click', async () => {
    if (!(await deleteDialog(guest))) return;
    const userId = session.user()?.id;
    import('../offline/store.js').then((m) => m.dropUser(userId)).catch(() => {}); // the local copy too
    session.clear();
    forgetSettings();
    await ctx.navigate('/app/register', { replace: true });
    toast(t('settings.deleted'));
  }, { signal });

  return () => controller.abort();
}

/** A switch row (a checkbox with role="switch"; Space toggles it, the whole row is its label). */
function toggle(id, label, help, checked) {
  return html`
    <label class="switch-row" for="${id}">
      <span class="switch-text">
        <strong id="${id}-label">${label}</strong>
        <span class="small muted" id="${id}-help">${help}</span>
      </span>
      <input id="${id}" type="checkbox" role="switch" class="switch" aria-labelledby="${id}-label"
        aria-describedby="${id}-help" ${checked ? 'checked' : ''}>
    </label>`;
}

/** Asks before deleting the account (with the password, except for a guest); resolves true once deleted. */
function deleteDialog(guest) {
  return new Promise((resolve) => {
    const dialog = document.createElement('dialog');
    dialog.className = 'dialog dialog-form';
    dialog.setAttribute('aria-labelledby', 'delete-dialog-title');
    render(dialog, html`
      <form class="dialog-body dialog-body-form" novalidate>
        <div class="dialog-icon dialog-icon-warning" aria-hidden="true">${icon('alert')}</div>
        <h2 id="delete-dialog-title" class="dialog-title">${t('settings.deleteTitle')}</h2>
        <p class="muted">${t(guest ? 'settings.deleteGuestConfirm' : 'settings.deleteConfirmText')}</p>
        ${guest ? '' : html`
          <div class="field">
            <label for="delete-password">${t('auth.password')}</label>
            <input id="delete-password" name="password" type="password" autocomplete="current-password" maxlength="72">
          </div>`}
        <div class="dialog-actions">
          <button type="button" class="btn btn-secondary" data-cancel>${t('cancel')}</button>
          <button type="submit" class="btn btn-danger">${t('settings.deleteButton')}</button>
        </div>
      </form>`);
    document.body.append(dialog);
    let deleted = false;
    dialog.addEventListener('close', () => { dialog.remove(); resolve(deleted); });
    dialog.querySelector('[data-cancel]').addEventListener('click', () => dialog.close());
    const form = dialog.querySelector('form');
    const password = form.elements.password;
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      if (password) {
        fieldError(password, password.value ? '' : t('auth.emptyPassword'));
        if (!password.value) { password.focus(); return; }
      }
      const button = form.querySelector('button[type=submit]');
      setBusy(button, true);
      try {
        await api.deleteAccount(guest ? '' : password.value);
        deleted = true;
        dialog.close();
      } catch (error) {
        setBusy(button, false);
        if (error.status === 401) { dialog.close(); return; }
        if (password && hasCode(error, 'wrong_password')) { fieldError(password, t('settings.wrongPassword')); password.focus(); return; }
        toast(errorText(error), 'error');
      }
    });
    dialog.showModal();
    (password || dialog.querySelector('[data-cancel]')).focus();
  });
}

// The settings screen once its settings are loaded (views/settings.js): the one owner of its
// state (the saved settings), drawing the page (settings/markup.js) and wiring each section.
// Switches and choices save at once; fields save with their form's button. Every listener ends
// with the clean-up `start()` returns.

import { render } from '../../html.js';
import { currentLanguage, rememberLanguage, t } from '../../i18n.js';
import { api, hasCode, session } from '../../api/client.js';
import { forgetSettings, gameElements, replaceSession, saveSettings, updateUser } from '../../account.js';
import { openUpgradeDialog } from '../../upgrade-dialog.js';
import { mountBackupPanel } from '../../backup-panel.js';
import { errorText, fieldError, setBusy, toast } from '../../ui.js';
import { GOAL_MAX, GOAL_MIN, settingsMarkup } from './markup.js';
import { setAppearance } from './appearances.js';
import { deleteDialog } from './delete-dialog.js';
import { RemindersSection } from './reminders.js';
import { mountSchedulerPanel } from './scheduler.js';
import { EasyDaysSection } from './easy-days.js';
import { TokensSection } from './tokens.js';
import { IdentitiesSection } from './identities.js';

export class SettingsScreen {
  #controller = new AbortController();

  /** `page`: {settings, user, guest, zone, providers (the server's OpenID providers, null when
   * unknown), restored, onRestored, navigate, reload}. */
  constructor(root, page) {
    this.root = root;
    Object.assign(this, page);
  }

  get signal() { return this.#controller.signal; }

  $(selector) { return this.root.querySelector(selector); }

  /** Listens to `event` on the element of `selector` (when the page has it) until the screen ends. */
  on(selector, event, handler) {
    this.$(selector)?.addEventListener(event, handler, { signal: this.signal });
  }

  /** Draws the page and wires its sections; returns the clean-up. */
  start() {
    render(this.root, settingsMarkup(this));
    this.#profile();
    this.#account();
    new IdentitiesSection(this).start();
    this.#learning();
    new RemindersSection(this).start();
    mountSchedulerPanel(this.$('#scheduler-panel'), this.signal);
    new EasyDaysSection(this).start();
    this.#choices();
    new TokensSection(this).start();
    // Data and backup: after a restore the page is drawn again, with the name, time zone and
    // settings it brought, and says what came back.
    mountBackupPanel(this.$('#backup'), { signal: this.signal, restored: this.restored, onRestored: this.onRestored });
    this.on('#delete-account', 'click', () => this.#deleteAccount());
    this.#showAnchor();
    return () => this.#controller.abort();
  }

  /** A link to a section (`/app/settings#tokens`, from the study partner without a model) opens
   * the page there: the section's heading takes the focus (and so comes into view). */
  #showAnchor() {
    const id = location.hash.slice(1);
    const section = id ? this.root.querySelector(`section[id="${CSS.escape(id)}"]`) : null;
    const heading = section?.querySelector('h2');
    if (!heading) return;
    heading.setAttribute('tabindex', '-1');
    heading.focus();
  }

  /** Saves settings from a switch or choice; on failure the control shows the saved state again. */
  async saveFrom(control, changes, restore) {
    control.disabled = true;
    try {
      this.settings = await saveSettings(changes);
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

  /** Runs `work` with the form's button busy; a failure is said in a toast (`handle` may take it). */
  async #submit(form, work, handle = () => false) {
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      await work();
    } catch (error) {
      if (error.status !== 401 && !handle(error)) toast(errorText(error, 'settings.saveError'), 'error');
    } finally {
      setBusy(button, false);
    }
  }

  #profile() {
    this.on('#profile-form', 'submit', (event) => {
      event.preventDefault();
      const form = event.currentTarget;
      const name = form.elements.name;
      const value = name.value.trim();
      fieldError(name, !value ? t('auth.emptyName') : value.length < 2 ? t('auth.shortName') : '');
      if (!value || value.length < 2) { name.focus(); return; }
      this.#submit(form, async () => {
        updateUser(await api.updateMe({ name: value, timeZone: form.elements.timeZone.value }));
        toast(t('settings.saved'));
      });
    });
  }

  #account() {
    this.on('#secure-account', 'click', async () => {
      if (await openUpgradeDialog()) this.reload();
    });
    this.on('#password-form', 'submit', (event) => {
      event.preventDefault();
      const form = event.currentTarget;
      // Setting the first password (an account a provider made) asks for no current one.
      const first = form.dataset.mode === 'set';
      const { current, next } = form.elements;
      if (current) fieldError(current, current.value ? '' : t('auth.emptyPassword'));
      fieldError(next, !next.value ? t('auth.emptyPassword') : next.value.length < 8 ? t('auth.shortPassword') : '');
      const invalid = form.querySelector('[aria-invalid=true]');
      if (invalid) { invalid.focus(); return; }
      this.#submit(form, async () => {
        // Without a current password the request carries none (undefined is left out).
        await api.changePassword(current?.value, next.value);
        // A new password ends every older session, this one too: sign in again with it.
        replaceSession(await api.login(this.user.mail, next.value));
        form.reset();
        toast(t(first ? 'settings.passwordSet' : 'settings.passwordChanged'));
        // The form becomes "Passwort ändern", the sign-ins may be unlinked now.
        if (first) this.reload();
      }, (error) => {
        const field = hasCode(error, 'wrong_password') && current ? current
          : hasCode(error, 'reauthentication_required') ? next : null;
        if (!field) return false;
        fieldError(field, t(field === current ? 'settings.wrongPassword' : 'settings.signInAgain'));
        field.focus();
        return true;
      });
    });
  }

  #learning() {
    this.on('#goal-form', 'submit', async (event) => {
      event.preventDefault();
      const input = event.currentTarget.elements.dailyGoal;
      const n = Number(input.value);
      const ok = input.value.trim() !== '' && Number.isInteger(n) && n >= GOAL_MIN && n <= GOAL_MAX;
      fieldError(input, ok ? '' : t('settings.dailyGoalError', { min: GOAL_MIN, max: GOAL_MAX }));
      if (!ok) { input.focus(); return; }
      await this.saveFrom(event.currentTarget.querySelector('button[type=submit]'), { dailyGoal: n }, () => {});
    });
    this.on('#language-choice', 'change', async (event) => {
      const code = event.target.value;
      const ok = await this.saveFrom(event.target, { language: code }, () => {
        this.$(`input[name=language][value=${currentLanguage()}]`).checked = true;
      });
      if (!ok) return;
      rememberLanguage(code);
      document.querySelector('app-header')?.dispatchEvent(new CustomEvent('language-change', { detail: code }));
    });
    // Game elements and focus mode: the leaderboard's switch shows only while game elements can.
    for (const [id, key] of [['game-elements', 'gameElements'], ['focus-mode', 'focusMode']]) {
      const control = this.$(`#${id}`);
      this.on(`#${id}`, 'change', async () => {
        const on = control.checked;
        if (await this.saveFrom(control, { [key]: on }, () => { control.checked = !on; })) {
          this.$('[aria-labelledby=leaderboard-title]')?.toggleAttribute('hidden', !gameElements());
        }
      });
    }
  }

  /** The leaderboard switch, the appearance (this device only, at once, no request) and the theme. */
  #choices() {
    const board = this.$('#leaderboard');
    this.on('#leaderboard', 'change', () => {
      const on = board.checked;
      this.saveFrom(board, { leaderboardOptIn: on }, () => { board.checked = !on; });
    });
    this.on('#appearance-choice', 'change', (event) => setAppearance(event.target.value));
    this.on('#theme-choice', 'change', (event) => {
      const before = this.settings.theme ?? '';
      this.saveFrom(event.target, { theme: event.target.value || null }, () => {
        this.$(`input[name=theme][value="${before}"]`).checked = true;
      });
    });
  }

  async #deleteAccount() {
    if (!(await deleteDialog(this.guest))) return;
    const userId = session.user()?.id;
    import('../../offline/store.js').then((m) => m.dropUser(userId)).catch(() => {}); // the local copy too
    session.clear();
    forgetSettings();
    await this.navigate('/app/register', { replace: true });
    toast(t('settings.deleted'));
  }
}

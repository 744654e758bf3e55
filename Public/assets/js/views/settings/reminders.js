// The settings' "Erinnerungen": the switch and the time, saved first (so the in-app note works
// whatever the browser can do), then this browser subscribed to Web Push (settings/push.js) and
// the status line says what it got. Part of the settings screen: its state stays there.

import { t } from '../../i18n.js';
import { currentSubscription, subscribeToReminders, unsubscribeFromReminders } from './push.js';

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

const PUSH_RESULT = { subscribed: 'settings.pushOn', denied: 'settings.pushDenied' };

export class RemindersSection {
  constructor(screen) {
    this.screen = screen;
    this.status = screen.$('#push-status');
    this.time = screen.$('#reminder-time');
    this.reminders = screen.$('#reminders');
  }

  say(key, params) { this.status.textContent = key ? t(key, params) : ''; }

  start() {
    const { screen, time } = this;
    time.disabled = !screen.settings.remindersEnabled;
    screen.on('#reminders', 'change', () => this.#switched());
    screen.on('#reminder-time', 'change', async () => {
      if (!TIME.test(time.value)) return;
      const before = screen.settings.reminderTime;
      if (await screen.saveFrom(time, { reminderTime: time.value }, () => { time.value = before; })) this.describe();
    });
    this.describe();
  }

  /** Says how this browser reminds (push, or the in-app note). */
  async describe() {
    const { settings, signal } = this.screen;
    if (!settings.remindersEnabled) { this.say(''); return; }
    const subscription = await currentSubscription();
    if (signal.aborted) return;
    const granted = typeof Notification !== 'undefined' && Notification.permission === 'granted';
    this.say(subscription && granted ? 'settings.pushOn' : 'settings.pushInApp', { time: this.screen.settings.reminderTime });
  }

  async #switched() {
    const { screen, reminders, time } = this;
    const on = reminders.checked;
    const changes = on
      ? { remindersEnabled: true, reminderTime: TIME.test(time.value) ? time.value : screen.settings.reminderTime }
      : { remindersEnabled: false };
    if (!(await screen.saveFrom(reminders, changes, () => { reminders.checked = !on; }))) return;
    time.disabled = !on;
    if (!on) { this.say(''); unsubscribeFromReminders(); return; }
    this.say('settings.pushAsking');
    let result;
    try { result = await subscribeToReminders(); } catch { return; }
    if (screen.signal.aborted) return;
    this.say(PUSH_RESULT[result] || 'settings.pushUnavailable', { time: screen.settings.reminderTime });
  }
}

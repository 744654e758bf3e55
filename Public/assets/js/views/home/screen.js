// The home screen once its data is there (views/home.js loads it): the one owner of its state
// (the progress, the game elements shown), drawing the page and answering its buttons: open the
// mystery box, use a won theme, mark a rest day, focus mode on or off, dismiss a note. Its
// listeners end with the clean-up `start()` returns.

import { render } from '../../html.js';
import { t } from '../../i18n.js';
import { api, hasCode, request, session } from '../../api/client.js';
import { saveSettings } from '../../account.js';
import { announce, errorText, toast } from '../../ui.js';
import { applyShares, userKey } from '../../progress-ui.js';
import {
  boxBlock, calendarBlock, celebrate, homeMarkup, levelBlock, restBlock, showReminderNote, streakBlock,
} from './blocks.js';

export class HomeScreen {
  #controller = new AbortController();

  /** `data`: {progress, settings, stacks, shown, focus}; `reload` draws the page again. */
  constructor(root, data, reload) {
    this.root = root;
    Object.assign(this, data);
    this.reload = reload;
    this.levelKey = userKey('level');
  }

  $(selector) { return this.root.querySelector(selector); }

  /** Draws the page (a level reached since the last visit celebrated); returns the clean-up. */
  start() {
    const { progress, shown } = this;
    const seenLevel = Number(localStorage.getItem(this.levelKey)) || 0;
    const levelUp = shown.level && seenLevel > 0 && progress.level.level > seenLevel;
    localStorage.setItem(this.levelKey, String(progress.level.level));
    render(this.root, homeMarkup({ ...this, user: session.user() || {} }));
    applyShares(this.root);
    this.celebration = this.$('#celebration');
    if (levelUp) celebrate(this.celebration, progress.level.level);
    if (!this.focus) showReminderNote(this.$('#reminder-note'), this.settings, progress);
    this.root.addEventListener('click', (event) => this.#onClick(event), { signal: this.#controller.signal });
    this.#showWorkload();
    return () => this.#controller.abort();
  }

  /** One calm line on the week ahead (the FSRS stacks' forecast); nothing when it cannot be had. */
  async #showWorkload() {
    const line = this.$('#home-workload');
    if (!line) return;
    try {
      const workload = await request('GET', '/me/workload?days=7', undefined, { signal: this.#controller.signal });
      if (workload.cards === 0) return;
      const minutes = Math.round(workload.averageMinutes);
      line.firstElementChild.textContent = minutes > 0 ? t('home.workload', { count: minutes }) : t('home.workloadCalm');
      line.hidden = false;
    } catch {
      // The line is a bonus: the page is complete without it.
    }
  }

  async #onClick(event) {
    const button = event.target.closest('button[data-action]');
    if (!button) return;
    const action = button.dataset.action;
    if (action === 'dismiss-celebration') this.celebration.replaceChildren();
    else if (action === 'dismiss-reminder') this.$('#reminder-note').replaceChildren();
    else if (action === 'open-box') await this.openBox(button);
    else if (action === 'use-theme') await this.useTheme(button);
    else if (action === 'rest-day') await this.toggleRestDay(button);
    else if (action === 'focus') await this.toggleFocus(button);
  }

  /** Focus mode on or off from the home screen itself; the page is drawn again for it. */
  async toggleFocus(button) {
    button.disabled = true;
    try {
      await saveSettings({ focusMode: !this.focus });
      this.#controller.abort();
      await this.reload();
      this.$('#home-view button')?.focus();
    } catch (error) {
      button.disabled = false;
      if (error.status !== 401) toast(errorText(error, 'settings.saveError'), 'error');
    }
  }

  async openBox(button) {
    const { progress } = this;
    button.disabled = true;
    button.classList.add('is-opening');
    try {
      const opened = await api.openMysteryBox();
      const before = progress.level.level;
      progress.mysteryBox = { available: false, opened: opened.box };
      if (opened.level) progress.level = opened.level;
      render(this.$('#box'), boxBlock(progress.mysteryBox, progress.challenges, true));
      const levelBox = this.$('#level-box');
      if (levelBox) render(levelBox, levelBlock(progress));
      applyShares(this.root);
      this.$('#box .box-reveal')?.focus();
      if (progress.level.level > before) {
        localStorage.setItem(this.levelKey, String(progress.level.level));
        celebrate(this.celebration, progress.level.level);
      }
    } catch (error) {
      button.disabled = false;
      button.classList.remove('is-opening');
      if (error.status === 401) return;
      toast(hasCode(error, 'challenges_open') ? t('home.boxClosed') : errorText(error), 'error');
    }
  }

  async useTheme(button) {
    button.disabled = true;
    try {
      await saveSettings({ theme: button.dataset.theme });
      toast(t('home.themeApplied', { theme: t(`theme.${button.dataset.theme}`) }));
      button.hidden = true;
    } catch (error) {
      button.disabled = false;
      if (error.status !== 401) toast(errorText(error), 'error');
    }
  }

  async toggleRestDay(button) {
    const { progress } = this;
    const on = !progress.streak.restToday;
    button.disabled = true;
    try {
      await api.setRestDay(progress.today, on);
      this.#markRestDay(on);
      render(this.$('#rest-day'), restBlock(progress));
      const streakHost = this.$('#streak-host');
      if (streakHost) render(streakHost, streakBlock(progress, { ...this.shown, rest: on }));
      render(this.$('#calendar-host'), calendarBlock(progress));
      this.$('#rest-day button')?.focus();
      announce(this.$('#rest-status'), t(on ? 'home.restMarked' : 'home.restRemoved'));
    } catch (error) {
      button.disabled = false;
      if (error.status !== 401) toast(errorText(error), 'error');
    }
  }

  /** Today as a rest day (or not) in the progress the page shows. */
  #markRestDay(on) {
    const { progress } = this;
    progress.streak.restToday = on;
    progress.restDays = on ? [...new Set([progress.today, ...(progress.restDays || [])])]
      : (progress.restDays || []).filter((d) => d !== progress.today);
    progress.calendar = progress.calendar.filter((e) => e.date !== progress.today || e.kind !== 'rest');
    if (on) progress.calendar.push({ date: progress.today, kind: 'rest' });
  }
}

// Pieces the progress screens share (home, onboarding, settings, leaderboard): their strings and
// stylesheet, loaded on first use, and the learner's clock.

import { loadStrings } from './i18n.js';
import { session } from './api/client.js';
import { defineIcons, loadStylesheet } from './ui.js';

defineIcons({
  gift: 'M4 11h16v9H4zM3 7h18v4H3zM12 7v13M12 7c-2-4-6-3.5-4.5-1.2C8.3 7 12 7 12 7Zm0 0c2-4 6-3.5 4.5-1.2C15.7 7 12 7 12 7Z',
  medal: 'M12 15a5 5 0 1 0 0-10 5 5 0 0 0 0 10Zm-3-.8L8 21l4-2 4 2-1-6.8',
  moon: 'M20 14.5A8 8 0 1 1 9.5 4a6.5 6.5 0 0 0 10.5 10.5Z',
  bell: 'M6 16v-5a6 6 0 1 1 12 0v5l2 2H4l2-2Zm4 4a2 2 0 0 0 4 0',
  calendar: 'M5 5h14a1 1 0 0 1 1 1v14a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm-1 5h16M8 3v4m8-4v4',
  target: 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18Zm0-4a5 5 0 1 0 0-10 5 5 0 0 0 0 10Zm0-4.5a.5.5 0 1 0 0-1 .5.5 0 0 0 0 1Z',
  leaf: 'M5 20c0-9 5-15 15-15 0 10-5 15-14 15m-1 0 8-8',
});

/** Loads what the progress screens need besides the app shell; call before rendering. */
export const loadProgressAssets = () =>
  Promise.all([loadStrings('more'), loadStylesheet('/assets/css/more.css')]);

/** The learner's time zone (the account's; the browser's before it is known). */
export const userZone = () => session.user()?.timeZone || Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The time of day "HH:MM" (24 h) now in the learner's zone. */
export function clockNow(now = new Date()) {
  try {
    return new Intl.DateTimeFormat('en-GB', {
      timeZone: userZone(), hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
    }).format(now);
  } catch {
    return `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;
  }
}

/** Morning, day or evening in the learner's zone (the greeting's key). */
export function partOfDay(now = new Date()) {
  const hour = Number(clockNow(now).slice(0, 2));
  if (hour >= 4 && hour < 11) return 'morning';
  if (hour >= 11 && hour < 18) return 'day';
  if (hour >= 18) return 'evening';
  return 'night';
}

/** Whether the user went on to another page while this one loaded (the router's `current`). */
export const stale = (ctx) => Boolean(ctx.current) && !ctx.current();

/** A per-user localStorage key. */
export const userKey = (name) => `fc.${name}.${session.user()?.id ?? 'anon'}`;

/** Bars with `data-share` (0 … 1) get their fill as `--share` (the CSP forbids style attributes). */
export function applyShares(root) {
  for (const el of root.querySelectorAll('[data-share]')) {
    const share = Math.max(0, Math.min(1, Number(el.dataset.share) || 0));
    el.style.setProperty('--share', String(share));
  }
}

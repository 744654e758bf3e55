// Home (/app/home): a greeting by time of day, today's goal as a ring, one "Jetzt lernen" (the
// session over every stack) or a calm "Für heute ist alles gelernt". Game elements come below, each
// once it is earned (`earned`): level and XP after the first review; the streak line from two days
// in a row ("3 Tage in Folge"), a streak freeze once one is earned; the daily challenges with the
// mystery box, the five-week calendar with "Heute als Ruhetag markieren", and the achievements
// after the first day of learning is over. They are hidden altogether when the learner switched
// "Spielelemente" off or focus mode on (a switch at the foot of the page turns focus mode on and
// off). A level reached since the last visit is celebrated once (the level seen last is kept per
// user); with reminders on and nothing studied after the reminder time, one gentle note stands in
// for the push message (once a day). Everything comes from `GET /me/progress`: the server computes
// XP, levels and streaks from the review log, never from numbers this page sends.
//
// This module loads the data; home/screen.js owns the screen's state and answers its buttons,
// home/blocks.js draws its parts.

import { html, render } from '../html.js';
import { t } from '../i18n.js';
import { api, hasCode } from '../api/client.js';
import { focusMode, gameElements, loadSettings } from '../account.js';
import { errorText, errorView, loadingView, retryable } from '../ui.js';
import { loadProgressAssets, stale } from '../progress-ui.js';
import { HomeScreen } from './home/screen.js';

export { calendarWeeks } from './home/blocks.js';

/** Whether the learner studied on a day before today (the first day of learning is over). */
function studiedBefore(progress) {
  const { streak, today } = progress;
  if ((progress.calendar || []).some((e) => e.date < today && ['active', 'frozen', 'missed'].includes(e.kind))) return true;
  if (streak.longest >= 2 || streak.current >= 2 || (streak.longest >= 1 && !streak.activeToday)) return true;
  // An achievement from more than a day before today's date (days older than the calendar's 35).
  const dayBefore = Date.parse(`${today}T00:00:00Z`) - 86_400_000;
  return (progress.achievements || []).some((a) => Date.parse(a.earnedAt) < dayBefore);
}

/**
 * The game elements this learner has earned (all false when they are switched off):
 * - `level`: level and XP, after the first review (any XP);
 * - `streak`: the streak line, from 2 days in a row;
 * - `freezes`, `longest`: a streak freeze once earned, the longest streak from 2 days when it is
 *   longer than the current one;
 * - `daily`: the daily challenges with the box, the calendar with rest days, after the first day of
 *   learning is over;
 * - `achievements`: once one is earned, from the same day on as `daily`.
 */
export function earned(progress, on = true) {
  const s = progress.streak;
  const daily = on && studiedBefore(progress);
  return {
    level: on && progress.level.totalXP > 0,
    streak: on && s.current >= 2,
    freezes: on && s.freezes > 0,
    longest: on && s.longest >= 2 && s.longest > s.current,
    rest: daily && s.restToday,
    daily,
    achievements: daily && (progress.achievements || []).length > 0,
  };
}

export const mount = retryable(mountHome);

async function mountHome(root, ctx, reload) {
  render(root, loadingView(t('loading')));
  let data;
  try {
    data = await loadHome();
  } catch (error) {
    if (error.name === 'AbortError' || error.status === 401 || stale(ctx)) return undefined;
    if (error.status === 0 && (await offlineHome(root, ctx, reload))) return undefined;
    render(root, html`<section class="page page-narrow">${errorView(hasCode(error, 'not_found') ? t('home.unavailable') : errorText(error, 'home.error'))}</section>`);
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  if (stale(ctx)) return undefined;
  return new HomeScreen(root, data, reload).start();
}

/** The progress, settings and stacks, and what the page shows of the game elements. */
async function loadHome() {
  await loadProgressAssets();
  const [progress, settings, stacks] = await Promise.all([
    api.progress(),
    loadSettings().catch(() => null),
    api.stacks().catch((error) => { if (error.status === 401) throw error; return null; }),
  ]);
  const focus = Boolean(settings ? settings.focusMode : progress.focusMode ?? focusMode());
  const games = !focus && (settings ? settings.gameElements !== false : gameElements());
  return { progress, settings, stacks, focus, shown: earned(progress, games) };
}

/** Offline: what is stored on this device, to study from (offline/views.js); false without it. */
async function offlineHome(root, ctx, reload) {
  render(root, html`<section class="page page-narrow"></section>`);
  const views = await import('../offline/views.js').catch(() => null);
  if (!views || stale(ctx)) return false;
  await views.overview(root.firstElementChild, reload, { heading: true });
  return true;
}

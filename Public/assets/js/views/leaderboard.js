// Leaderboard (/app/leaderboard): today's top 50 by cards studied or by topics (stacks) explored,
// display names only. It is opt-in: until the learner joins, the page explains it and offers the
// switch (`PATCH /me/settings {leaderboardOptIn}`). The tabs Karten / Themen move with the arrow
// keys; the metric is kept in the URL (`?metric=topics`). In focus mode or with game elements off
// there is no leaderboard. It is not in the main navigation: the statistics and the home screen's
// progress link to it, and its breadcrumb leads back to the statistics.
//
// This module loads the settings and picks the page; leaderboard/board.js owns the board's state,
// leaderboard/markup.js draws it.

import { html, render } from '../html.js';
import { t } from '../i18n.js';
import { focusMode, gameElements, loadSettings, saveSettings } from '../account.js';
import { errorText, errorView, loadingView, retryable, setBusy, toast } from '../ui.js';
import { loadProgressAssets, stale } from '../progress-ui.js';
import { METRICS, joinMarkup, noteMarkup } from './leaderboard/markup.js';
import { Board } from './leaderboard/board.js';

export const mount = retryable(mountBoard);

async function mountBoard(root, ctx, reload) {
  render(root, loadingView(t('loading')));
  let settings;
  try {
    await loadProgressAssets();
    settings = await loadSettings();
  } catch (error) {
    if (error.status === 401 || stale(ctx)) return undefined;
    render(root, html`<section class="page page-narrow">${errorView(errorText(error, 'board.error'))}</section>`);
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  if (stale(ctx)) return undefined;
  const focus = settings?.focusMode ?? focusMode();
  if (focus || !(settings ? settings.gameElements !== false : gameElements())) {
    render(root, noteMarkup(focus));
    return undefined;
  }
  if (!settings?.leaderboardOptIn) {
    showJoin(root, reload);
    return undefined;
  }
  const metric = METRICS.includes(ctx.query.get('metric')) ? ctx.query.get('metric') : 'cards';
  return new Board(root, metric, reload).start();
}

/** The invitation to join; once joined, the board. */
function showJoin(root, reload) {
  render(root, joinMarkup());
  const join = root.querySelector('#join');
  join.addEventListener('click', async () => {
    setBusy(join, true);
    try {
      await saveSettings({ leaderboardOptIn: true });
      toast(t('board.joined'));
      await reload();
      root.querySelector('[role=tab][aria-selected=true]')?.focus();
    } catch (error) {
      setBusy(join, false);
      if (error.status !== 401) toast(errorText(error, 'settings.saveError'), 'error');
    }
  });
}

// The match game (/app/stacks/{id}/match): six questions and their answers as tiles, paired
// against the clock. Practice only: it writes no review; the stack keeps its best time
// (POST …/match). Tiles are buttons, so the game works by keyboard and screen reader too.
//
// This module loads the stack and its cards; match/game.js owns the game's state and clock,
// match/markup.js draws it.

import { render } from '../html.js';
import { t } from '../i18n.js';
import { api } from '../api/client.js';
import { errorText, errorView, loadingView, retryable } from '../ui.js';
import { MatchGame } from './match/game.js';

const PAGE = 200;

export const mount = retryable(mountGame);

async function mountGame(root, ctx, reload) {
  const stackId = ctx.params.stackId;
  render(root, loadingView(t('loading')));
  let stack;
  let pool;
  try {
    stack = await api.stack(stackId);
    // A random page of up to 200 cards: big stacks vary from game to game.
    const pages = Math.max(1, Math.ceil(stack.cardCount / PAGE));
    const page = await api.cards(stackId, { page: 1 + Math.floor(Math.random() * pages), perPage: PAGE });
    pool = page.items;
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  return new MatchGame(root, { stackId, stack, pool }).start();
}

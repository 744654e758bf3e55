// The swipe feed (/app/stacks/{id}/feed, or /app/feed for every stack): one card per screen.
// Tap (or Space) flips it; swipe up or ↓ for the next card, down or ↑ for the previous one;
// swipe right or → marks it understood (rated "I knew it" in its stack's scheduler, mode `feed`);
// swipe left or ← bookmarks it. Buttons do the same for mouse, keyboard and screen reader users.
// `?size=` limits how many cards the feed goes through.
//
// This module opens the feed; feed/screen.js owns its state and draws it (feed/markup.js),
// feed/gestures.js turns swipes and taps into its actions.

import { render } from '../html.js';
import { t } from '../i18n.js';
import { errorText, errorView, loadStylesheet, loadingView, retryable } from '../ui.js';
import { StudySession, sessionStacks, sizeFromQuery } from '../study-session.js';
import { FeedScreen } from './feed/screen.js';

export const mount = retryable(mountFeed);

async function mountFeed(root, ctx, reload) {
  const stackId = ctx.params.stackId;
  render(root, loadingView(t('feed.loading')));
  // The card's label and flip cue are styled like the flip card's (its stylesheet loads on use).
  const styled = loadStylesheet('/assets/components/flip-card/flip-card.css');
  let screen;
  try {
    const session = new StudySession(await sessionStacks(stackId), { mode: 'feed', size: sizeFromQuery(ctx.query.get('size')) });
    screen = new FeedScreen(root, session, stackId);
    await screen.loadMore();
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  await styled;
  return screen.start();
}

// A study session that rates cards (/app/stacks/{id}/learn, or /app/learn for every stack), in one
// of three modes (`?mode=`): flashcards (reveal, rate), quiz (pick one of up to four answers) or
// write (type the answer; a near miss shows a character diff, an answer far off the learner's and
// the right one one above the other). `?size=` ends the session after that many
// reviews. A flashcards rating answer carries the next card, so it appears without a second
// request. The swipe feed and the match game have their own views (feed.js, match.js).
//
// This module opens the session; learn/screen.js owns the screen's state and draws it, with a
// renderer per mode (learn/flashcards.js, quiz.js, write.js) and the end (learn/end.js).

import { render } from '../html.js';
import { t } from '../i18n.js';
import { registerFlipCard } from '../../components/flip-card/flip-card.js';
import { registerRatingBar } from '../../components/rating-bar/rating-bar.js';
import { errorText, errorView, loadStylesheet, loadingView, retryable } from '../ui.js';
import { StudySession, sessionStacks, sizeFromQuery } from '../study-session.js';
import { LearnScreen } from './learn/screen.js';

const MODES = ['flashcards', 'quiz', 'write'];

export const mount = retryable(mountSession);

async function mountSession(root, ctx, reload) {
  const styled = registerFlipCard();
  registerRatingBar();
  const stackId = ctx.params.stackId;
  const mode = MODES.includes(ctx.query.get('mode')) ? ctx.query.get('mode') : 'flashcards';
  if (mode === 'write') loadStylesheet('/assets/css/write.css'); // the result's comparison
  const session = await openSession(root, { stackId, mode, size: sizeFromQuery(ctx.query.get('size')) }, reload);
  if (!session) return undefined;
  await styled;
  return new LearnScreen(root, session, { mode, stackId }).start();
}

/** Loads the session's stacks and first card; null (after showing the error) when that failed. */
async function openSession(root, { stackId, mode, size }, reload) {
  render(root, loadingView(t('learn.loading')));
  try {
    const session = new StudySession(await sessionStacks(stackId), { mode, size });
    await session.load();
    return session;
  } catch (error) {
    if (error.status === 401) return null;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return null;
  }
}

// Onboarding (/app/welcome): after signing up or starting as a guest, and again from the settings.
// Three short screens on what is different here (spaced repetition, cards from your own material,
// no pressure), then the goal, the minutes per day and the interests. Every step can be skipped
// ("Überspringen" marks the onboarding done and goes home); "Fertig" saves the answers with
// `PATCH /me/settings` (the server turns the minutes into the daily goal). Each step is a form, so
// Enter goes on; radios move with the arrow keys; interests are toggle buttons. `?step=questions`
// starts at the goal (changing the answers later), `?next=/app/…` is where it ends.
//
// This module loads the saved answers; welcome/screen.js owns the steps' state, welcome/markup.js
// draws them.

import { t } from '../i18n.js';
import { loadSettings } from '../account.js';
import { HOME } from '../router.js';
import { loadProgressAssets, stale } from '../progress-ui.js';
import { INTRO } from './welcome/markup.js';
import { WelcomeScreen } from './welcome/screen.js';

const TOPICS = 12;

/** Only same-app paths are accepted as where the onboarding ends. */
function safeNext(query) {
  const next = query.get('next') || '';
  return next.startsWith('/app/') && !next.startsWith('//') && !next.startsWith('/app/welcome') ? next : HOME;
}

export async function mount(root, ctx) {
  const { query, navigate } = ctx;
  await loadProgressAssets();
  const saved = (await loadSettings().catch(() => null))?.onboarding || {};
  if (stale(ctx)) return;
  const screen = new WelcomeScreen(root, {
    answers: {
      purpose: saved.purpose ?? null,
      minutesPerDay: saved.minutesPerDay ?? null,
      interests: [...(saved.interests || [])],
    },
    topics: Array.from({ length: TOPICS }, (_, i) => t(`welcome.topic.${i + 1}`)),
    step: query.get('step') === 'questions' ? INTRO.length : 0,
    end: safeNext(query),
    navigate,
  });
  // The router moves the focus to the first step's heading; "Weiter" is one Tab on.
  screen.show(false);
}

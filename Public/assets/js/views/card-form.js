// Create (/app/stacks/{id}/cards/new) or edit (/app/stacks/{id}/cards/{cardId}) a flashcard.
// The screen in parts: card-form/render.js (the page's templates), card-form/screen.js (the
// CardFormScreen that owns the card being written), card-form/preview.js (a rich card's preview),
// card-form/images.js (images from the picker, camera, clipboard or a drop).

import { render } from '../html.js';
import { loadStrings, t } from '../i18n.js';
import { api } from '../api/client.js';
import { errorText, errorView, loadStylesheet, loadingView, retryable } from '../ui.js';
import { pageTemplate } from './card-form/render.js';
import { CardFormScreen, storedCard } from './card-form/screen.js';

export const mount = retryable(mountPage);

/** The stack and the card (null for a new one): from the server, else (offline, an edit) as stored
 * on this device; null when neither answers (the page shows the error and "Erneut versuchen"). */
async function load(root, params, reload) {
  const editing = Boolean(params.cardId);
  try {
    const [stack, card] = await Promise.all([
      api.stack(params.stackId),
      editing ? api.card(params.stackId, params.cardId) : null,
      loadStrings('more'), // the formatting option's strings
      loadStylesheet('/assets/css/rich-text.css'),
      loadStylesheet('/assets/css/more.css'), // the card kind's select
    ]);
    return [stack, card];
  } catch (error) {
    if (error.status === 401) return null;
    // Offline: the card as stored on this device (an edit then waits in the outbox).
    const stored = error.status === 0 && editing ? await storedCard(params) : null;
    if (!stored) {
      render(root, errorView(errorText(error)));
      root.querySelector('[data-retry]').addEventListener('click', reload);
    }
    return stored;
  }
}

async function mountPage(root, { params }, reload) {
  render(root, loadingView(t('loading')));
  const loaded = await load(root, params, reload);
  if (!loaded) return undefined;
  const [stack, card] = loaded;
  const form = { params, stack, card, editing: Boolean(params.cardId), stackUrl: `/app/stacks/${params.stackId}` };
  render(root, pageTemplate(form));
  const screen = new CardFormScreen(root, form);
  return () => screen.destroy();
}

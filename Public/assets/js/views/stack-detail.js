// A stack with its cards: search, paging and the bookmark filter go to the API (q, page, perPage,
// bookmarked), so a stack with 10,000 cards loads one page at a time. The URL keeps them
// (`?q=…&page=…&filter=bookmarked`), so a reload or Back shows the same list.
// The screen in parts: stack-detail/render.js (the page's templates), stack-detail/screen.js (the
// StackScreen that owns the list's state and the stack's actions).

import { render } from '../html.js';
import { t } from '../i18n.js';
import { api } from '../api/client.js';
import { errorText, errorView, loadStylesheet, loadingView, retryable } from '../ui.js';
import { pageTemplate } from './stack-detail/render.js';
import { StackScreen } from './stack-detail/screen.js';

export const mount = retryable(mountPage);

async function mountPage(root, { params, query }, reload) {
  const id = params.stackId;
  let stack;
  render(root, loadingView(t('loading')));
  try {
    // The export menu's styles come with the import's (css/import.css).
    [stack] = await Promise.all([api.stack(id), loadStylesheet('/assets/css/import.css')]);
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  const view = { id, stack, base: `/app/stacks/${id}`, q: query.get('q') || '', bookmarkedOnly: query.get('filter') === 'bookmarked' };
  render(root, pageTemplate(view));
  const screen = new StackScreen(root, view, Math.max(1, Number(query.get('page')) || 1));
  await screen.load();
  return () => screen.destroy();
}

// "Karten importieren" (/app/import from the library; /app/import?stack={id} from a stack's page,
// which preselects that stack). A file (button or drag and drop) goes to the server's preview.
// CSV/TSV: how it was read, the first rows with the column mapping, the cards it makes and the
// problems with their lines; changing the separator, the header or the mapping runs it again.
// An Anki package (.apkg): its decks, notes, cards, review history and media, the first cards as
// questions and answers, the problems with their note ids; each deck becomes a stack unless all go
// into one new or existing stack. A backup of Smart Flashcards (.json, or zipped: a stack's export or
// a whole account's): its stacks shown like decks, each added as a copy with its history (a single
// one may be renamed; never into an existing stack). The import is refused while the file has
// problems; it runs as a job (all or nothing) and ends with links to the stacks. Strings:
// i18n/import.*.js; styles: css/import.css.
//
// The screen in parts: import/state.js (the state, no DOM), import/render.js (templates of that
// state), import/screen.js (the ImportScreen that owns the state and listens to the page).

import { render } from '../html.js';
import { loadStrings, t } from '../i18n.js';
import { api } from '../api/client.js';
import { errorText, errorView, loadStylesheet, loadingView, retryable } from '../ui.js';
import { pageTemplate } from './import/render.js';
import { ImportScreen } from './import/screen.js';

export const mount = retryable(mountPage);

async function mountPage(root, { query }, reload) {
  render(root, loadingView(t('loading')));
  let stacks;
  try {
    [stacks] = await Promise.all([api.stacks(), loadStrings('import'), loadStylesheet('/assets/css/import.css')]);
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  const from = stacks.find((s) => s.id === query.get('stack'));
  render(root, pageTemplate(from));
  const screen = new ImportScreen(root, stacks, from);
  return () => screen.destroy();
}

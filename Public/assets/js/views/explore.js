// Explore (/app/explore): the public catalogue. A search over names and descriptions, category
// pills and a language choice (all kept in the URL, `?q=…&category=…&language=…`, replacing the
// entry), a grid of published stacks with their first questions, a page at a time. It opens on the
// stacks in the learner's interface language; "Alle Sprachen zeigen" (one click) or the choice shows
// the others (`language=all` in the URL). Strings and styles load on use (explore.*.js, explore.css).
//
// This module holds the catalogue's routes and opens the page; explore/screen.js owns its state,
// explore/markup.js draws it.

import { render } from '../html.js';
import { currentLanguage, loadStrings, t } from '../i18n.js';
import { enc, request } from '../api/client.js';
import { loadStylesheet, loadingView } from '../ui.js';
import { CATEGORIES, LANGUAGES } from './explore/markup.js';
import { ExploreScreen } from './explore/screen.js';

export { CATEGORIES, LANGUAGES, authorLine, entryPills } from './explore/markup.js';

/** The catalogue's routes (kept here, not in api/client.js, so the first page stays small). */
export const catalogue = {
  /** The stack's entry (404 `not_published` when it is not published). */
  publication: (id) => request('GET', `/stacks/${enc(id)}/publication`),
  publish: (id, category, language) => request('PUT', `/stacks/${enc(id)}/publication`, { category, language }),
  unpublish: (id) => request('DELETE', `/stacks/${enc(id)}/publication`),
  /** A page: `{ q, category, language, page, perPage }`, blank values left out. */
  browse: (params, options = {}) => {
    const query = new URLSearchParams(Object.entries(params).filter(([, value]) => value !== '' && value != null));
    return request('GET', `/explore?${query}`, undefined, options);
  },
  entry: (id, page, perPage) => request('GET', `/explore/${enc(id)}?page=${page}&perPage=${perPage}`),
  copy: (id) => request('POST', `/explore/${enc(id)}/copy`),
  report: (id, reason, note) => request('POST', `/explore/${enc(id)}/report`, { reason, note: note || null }),
};

export async function mount(root, { query }) {
  render(root, loadingView(t('loading')));
  await Promise.all([loadStrings('explore'), loadStylesheet('/assets/css/explore.css')]);
  // The learner's own language unless the URL names one (or `all`).
  const own = LANGUAGES.includes(currentLanguage()) ? currentLanguage() : '';
  const asked = query.get('language');
  const state = {
    q: query.get('q') || '',
    category: CATEGORIES.includes(query.get('category')) ? query.get('category') : '',
    language: asked === 'all' ? '' : LANGUAGES.includes(asked) ? asked : own,
    own,
  };
  return new ExploreScreen(root, state, catalogue.browse).start();
}

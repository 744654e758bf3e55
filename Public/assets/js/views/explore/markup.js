// The catalogue's markup (views/explore.js, explore/screen.js): the page with its search,
// language choice and category pills, a published stack's card, the empty state. Rendering only.

import { html } from '../../html.js';
import { formatNumber, t } from '../../i18n.js';
import { icon } from '../../ui.js';
import { stackBadge } from '../dashboard.js';

export const CATEGORIES = ['languages', 'science', 'math', 'geography', 'history', 'medicine', 'law', 'technology', 'business', 'arts', 'other'];
export const LANGUAGES = ['de', 'en', 'fr', 'es', 'it', 'other'];

/** Where an entry's author line comes from: us, the caller, or someone else. */
export const authorLine = (entry) => (entry.official ? t('explore.official') : entry.mine ? t('explore.mine') : t('explore.by', { author: entry.author }));

/** The category and language pills of an entry. */
export const entryPills = (entry) => html`
  <span class="pill pill-category">${t(`category.${entry.category}`)}</span>
  <span class="pill pill-language">${t(`language.${entry.language}`)}</span>`;

const toolbarMarkup = ({ q, language }) => html`
      <form class="toolbar explore-toolbar" role="search" id="explore-form">
        <label class="search">
          <span class="visually-hidden">${t('explore.search')}</span>
          ${icon('search')}
          <input type="search" id="explore-search" name="q" maxlength="200" placeholder="${t('explore.searchPlaceholder')}" value="${q}" autocomplete="off">
        </label>
        <label class="explore-language">
          <span class="visually-hidden">${t('explore.language')}</span>
          <select id="explore-language">
            <option value="">${t('explore.allLanguages')}</option>
            ${LANGUAGES.map((code) => html`<option value="${code}" ${code === language ? 'selected' : ''}>${t(`language.${code}`)}</option>`)}
          </select>
        </label>
        <button type="button" class="btn btn-ghost btn-sm" id="explore-all-languages" ${language ? '' : 'hidden'}>${icon('globe')}<span>${t('explore.showAllLanguages')}</span></button>
      </form>`;

/** The page; `state`: {q, category, language}. */
export const pageMarkup = (state) => html`
    <section class="page">
      <header class="page-header">
        <div>
          <h1 tabindex="-1">${t('explore.title')}</h1>
          <p class="muted">${t('explore.lead')}</p>
        </div>
      </header>
      ${toolbarMarkup(state)}
      <div class="category-pills" role="group" aria-label="${t('explore.categories')}" id="explore-categories">
        ${['', ...CATEGORIES].map((c) => html`
          <button type="button" class="category-pill" data-category="${c}" aria-pressed="${c === state.category ? 'true' : 'false'}">
            ${c ? t(`category.${c}`) : t('explore.allCategories')}</button>`)}
      </div>
      <p class="visually-hidden" role="status" id="explore-status"></p>
      <div id="explore-results"></div>
      <button type="button" class="btn btn-secondary explore-more" id="explore-more" hidden>${t('explore.more')}</button>
    </section>`;

/** Nothing published (`filtered`: nothing that fits the search and choices). */
export const emptyMarkup = (filtered) => html`
          <div class="panel empty-state explore-empty">
            <span class="empty-icon" aria-hidden="true">${icon('compass')}</span>
            <span class="empty-title">${t(filtered ? 'explore.none' : 'explore.empty')}</span>
            <span class="muted">${t(filtered ? 'explore.noneHint' : 'explore.emptyHint')}</span>
          </div>`;

/** A published stack in the grid (its preview's lines are filled in after). */
export const entryMarkup = (entry) => html`
        <article class="explore-card" data-color="${entry.color}" aria-labelledby="entry-${entry.id}">
          <div class="explore-card-head">
            ${stackBadge(entry)}
            <div class="explore-card-title">
              <h2 id="entry-${entry.id}"><a href="/app/explore/${entry.id}">${entry.name}</a></h2>
              <p class="muted">${t('explore.cards', { count: formatNumber(entry.cardCount) })} · ${authorLine(entry)}</p>
            </div>
          </div>
          ${entry.description ? html`<p class="explore-description">${entry.description}</p>` : ''}
          <div class="explore-pills">${entryPills(entry)}</div>
          <ul class="explore-preview">
            ${entry.preview.map(() => html`<li></li>`)}
          </ul>
        </article>`;

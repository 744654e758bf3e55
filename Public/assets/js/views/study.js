// Study setup (/app/stacks/{id}/study, or /app/study for every stack): the mode and the session
// size, then off to the session. The last choice is remembered and preselected, and the start
// button has the focus, so Enter starts at once.

import { html, render } from '../html.js';
import { dueCountValue, t } from '../i18n.js';
import { errorText, errorView, icon, loadingView, stackBreadcrumb, stacksBreadcrumb } from '../ui.js';
import { SESSION_SIZES, saveStudyPrefs, sessionStacks, studyPrefs } from '../study-session.js';

/** Every mode with its icon; `rates` modes change the schedule, the match game does not. */
const MODES = [
  { mode: 'flashcards', icon: 'flip' },
  { mode: 'quiz', icon: 'list' },
  { mode: 'write', icon: 'pencil' },
  { mode: 'feed', icon: 'swipe' },
  { mode: 'match', icon: 'grid' },
];

/** Why a mode cannot be chosen here, or '' when it can. */
function unavailable(mode, { single, cards }) {
  if (mode === 'match' && !single) return t('study.matchOneStack');
  if ((mode === 'match' || mode === 'quiz') && cards < 2) return t('study.needTwoCards');
  if (cards === 0) return t('study.noCards');
  return '';
}

/** Where a session of `mode` starts. */
export function sessionUrl(stackId, mode, size) {
  const base = stackId ? `/app/stacks/${encodeURIComponent(stackId)}` : '/app';
  if (mode === 'match') return `${base}/match`;
  const sizeQuery = size ? `size=${size}` : 'size=all';
  if (mode === 'feed') return `${base}/feed?${sizeQuery}`;
  return `${base}/learn?mode=${mode}&${sizeQuery}`;
}

const emptyMarkup = (stackId, backUrl) => html`
          <div class="state state-empty">
            <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
            <p class="muted">${t('learn.emptyStackText')}</p>
            ${stackId ? html`<a class="btn btn-primary" href="${backUrl}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>` : html`<a class="btn btn-primary" href="/app/stacks/new">${icon('plus')}<span>${t('dash.create')}</span></a>`}
          </div>`;

const modeGrid = (facts, chosen) => html`
          <fieldset class="mode-grid">
            <legend>${t('study.modeLegend')}</legend>
            ${MODES.map(({ mode, icon: name }) => {
              const reason = unavailable(mode, facts);
              return html`
              <label class="mode-option ${reason ? 'is-disabled' : ''}">
                <input type="radio" name="mode" value="${mode}" ${mode === chosen ? 'checked' : ''} ${reason ? 'disabled' : ''}
                  aria-describedby="mode-${mode}-help">
                <span class="mode-card">
                  <span class="mode-icon" aria-hidden="true">${icon(name)}</span>
                  <span class="mode-name">${t(`study.mode.${mode}`)}</span>
                  <span class="mode-help small muted" id="mode-${mode}-help">${reason || t(`study.help.${mode}`)}</span>
                </span>
              </label>`;
            })}
          </fieldset>`;

const formMarkup = ({ facts, chosen, prefs, backUrl }) => html`
        <form id="study-form" class="study-form" novalidate>
          ${modeGrid(facts, chosen)}
          <fieldset class="size-group" id="size-group">
            <legend>${t('study.sizeLegend')}</legend>
            <div class="size-options">
              ${SESSION_SIZES.map((size) => html`
                <label class="size-option">
                  <input type="radio" name="size" value="${size}" ${size === prefs.size ? 'checked' : ''}>
                  <span>${size ? t('study.sizeN', { count: size }) : t('study.sizeAll')}</span>
                </label>`)}
            </div>
            <p class="small muted" id="size-help"></p>
          </fieldset>
          <div class="form-actions">
            <a class="btn btn-secondary" href="${backUrl}">${t('cancel')}</a>
            <button type="submit" class="btn btn-primary btn-lg" id="start" autofocus>${icon('play')}<span>${t('study.start')}</span></button>
          </div>
        </form>`;

/** The setup page; `page`: {stackId, stacks, facts, chosen, prefs, backUrl}. */
const setupMarkup = (page) => {
  const { stackId, stacks, facts, backUrl } = page;
  return html`
    <section class="page page-narrow study-setup">
      ${stackId ? stackBreadcrumb(stacks[0], backUrl, t('study.crumb')) : stacksBreadcrumb(t('study.allStacks'))}
      <div class="panel">
        <h1>${t('study.title')}</h1>
        <p class="muted" id="study-lead">${stackId ? stacks[0].name : t('study.allStacks')} · ${facts.cards === 0
          ? t('study.noCards')
          : facts.due ? t('study.due', { count: dueCountValue(facts.due) }) : t('study.noneDue')}</p>
        ${facts.cards === 0 ? emptyMarkup(stackId, backUrl) : formMarkup(page)}
      </div>
    </section>`;
};

export async function mount(root, ctx) {
  const stackId = ctx.params.stackId;
  render(root, loadingView(t('loading')));
  let stacks;
  try {
    stacks = await sessionStacks(stackId);
  } catch (error) {
    if (error.status === 401) return;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', () => mount(root, ctx));
    return;
  }
  const facts = {
    single: Boolean(stackId),
    cards: stacks.reduce((sum, s) => sum + s.cardCount, 0),
    due: stacks.reduce((sum, s) => sum + s.dueCount, 0),
  };
  const prefs = studyPrefs();
  const firstAvailable = MODES.find((m) => !unavailable(m.mode, facts))?.mode;
  const chosen = unavailable(prefs.mode, facts) ? firstAvailable : prefs.mode;
  const backUrl = stackId ? `/app/stacks/${stackId}` : '/app/stacks';
  render(root, setupMarkup({ stackId, stacks, facts, chosen, prefs, backUrl }));
  const form = root.querySelector('#study-form');
  if (form) wireForm(root, form, { facts, stackId, navigate: ctx.navigate });
}

/** The chosen mode's size help; "Los geht’s" remembers the choice and starts. */
function wireForm(root, form, { facts, stackId, navigate }) {
  if (!form.elements.size.value) form.querySelector('input[name=size]').checked = true;
  /** The size only matters for modes that go through cards; the match game always plays six. */
  const updateSize = () => {
    const mode = form.elements.mode.value;
    const group = root.querySelector('#size-group');
    group.disabled = mode === 'match';
    root.querySelector('#size-help').textContent = t(mode === 'match'
      ? 'study.sizeMatch' : mode === 'feed' ? 'study.sizeFeed' : facts.due ? 'study.sizeDue' : 'study.sizeNoneDue');
  };
  form.addEventListener('change', updateSize);
  updateSize();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const mode = form.elements.mode.value;
    const size = Number(form.elements.size.value) || 0;
    saveStudyPrefs({ mode, size });
    navigate(sessionUrl(stackId, mode, size));
  });
  root.querySelector('#start').focus();
}

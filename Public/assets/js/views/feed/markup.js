// The swipe feed's markup (views/feed.js): the page with its card and buttons, and its end.
// Rendering only: feed/screen.js fills it in.

import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { icon, stackBreadcrumb, stacksBreadcrumb } from '../../ui.js';
import { summaryMarkup } from '../../session-summary.js';

const cardMarkup = () => html`
          <article class="feed-card" id="feed-card" tabindex="0" aria-roledescription="${t('feed.cardRole')}"
            aria-describedby="feed-help">
            <p class="pill pill-stack" id="from-stack" hidden></p>
            <span class="face-label" id="face-label"></span>
            <div class="feed-text" id="feed-question"></div>
            <div class="feed-text feed-answer" id="feed-answer" hidden></div>
            <span class="feed-marks">
              <span class="pill pill-bookmark" id="mark-bookmark" hidden>${icon('bookmark')}<span>${t('feed.bookmarked')}</span></span>
              <span class="pill pill-done" id="mark-understood" hidden>${icon('check')}<span>${t('feed.understood')}</span></span>
            </span>
            <span class="flip-cue" aria-hidden="true">${icon('flip')}<span>${t('feed.tapToFlip')}</span></span>
          </article>`;

const actionsMarkup = () => html`
        <div class="feed-actions" role="group" aria-label="${t('feed.actions')}">
          <button type="button" class="btn btn-secondary" id="feed-prev" aria-keyshortcuts="ArrowUp">${icon('up')}<span>${t('feed.prev')}</span></button>
          <button type="button" class="btn btn-secondary" id="feed-bookmark" aria-pressed="false" aria-keyshortcuts="ArrowLeft">${icon('bookmark')}<span>${t('feed.bookmark')}</span></button>
          <button type="button" class="btn btn-secondary" id="feed-flip" aria-keyshortcuts="Space">${icon('flip')}<span>${t('feed.flip')}</span></button>
          <button type="button" class="btn btn-primary" id="feed-good" aria-keyshortcuts="ArrowRight">${icon('check')}<span>${t('feed.good')}</span></button>
          <button type="button" class="btn btn-secondary" id="feed-next" aria-keyshortcuts="ArrowDown">${icon('down')}<span>${t('feed.next')}</span></button>
        </div>`;

/** The feed's page over one stack (`stackId`) or every stack. */
export const pageMarkup = ({ stackId, stack, backUrl }) => html`
    <section class="page feed">
      ${stackId ? stackBreadcrumb(stack, backUrl, t('study.mode.feed')) : stacksBreadcrumb(`${t('study.allStacks')}: ${t('study.mode.feed')}`)}
      <h1 class="visually-hidden">${t('study.mode.feed')}: ${stackId ? stack.name : t('study.allStacks')}</h1>
      <div class="learn-status">
        <span class="position" id="position"></span>
        <span class="counter" id="counter"></span>
        <span class="visually-hidden" id="announce" role="status" aria-live="polite"></span>
      </div>
      <div id="feed-stage">
        <div class="feed-viewport" id="viewport">
          ${cardMarkup()}
        </div>
        <div class="alert alert-error" role="alert" id="feed-error" hidden></div>
        ${actionsMarkup()}
        <p class="kbd-help small muted" id="feed-help"><span class="hide-touch">${t('feed.keys')}</span><span class="show-touch">${t('feed.swipes')}</span></p>
      </div>
      <div id="feed-end" hidden></div>
    </section>`;

/** The end: an empty stack, or what was seen, understood and bookmarked (with the summary). */
export const endMarkup = ({ seen, session, bookmarked, stackId, backUrl }) => (seen === 0 ? html`
      <div class="state state-empty">
        <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
        <p class="empty-title">${t('learn.emptyStack')}</p>
        <p class="muted">${t('learn.emptyStackText')}</p>
      </div>` : html`
      <div class="state state-done" role="status">
        <span class="success-icon celebrate" aria-hidden="true">${icon('check')}</span>
        <h2 class="empty-title" id="feed-end-title">${t('feed.endTitle')}</h2>
        <p class="muted">${t('feed.endText', { seen, understood: session.reviews, bookmarked })}</p>
        ${session.reviews ? summaryMarkup(session) : ''}
        <div class="form-actions">
          <button type="button" class="btn btn-secondary" id="feed-again">${t('feed.again')}</button>
          <a class="btn btn-primary" href="${backUrl}" id="feed-back">${t(stackId ? 'learn.toStack' : 'learn.toDashboard')}</a>
        </div>
      </div>`);

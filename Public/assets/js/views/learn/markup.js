// The markup of a study session's page (views/learn.js): status line, progress, the card, the
// controls of its mode and the end-of-session dialog. Rendering only: screen.js fills it in.

import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { icon, stackBreadcrumb, stacksBreadcrumb } from '../../ui.js';

export const DIACRITICS = 'fc.ignoreDiacritics';

const statusMarkup = () => html`
      <div class="learn-status">
        <span class="position" id="position"></span>
        <span class="counter" id="counter" role="status"></span>
        <span class="pill pill-ahead" id="ahead" hidden></span>
        <span class="muted small" id="remaining"></span>
        <button type="button" class="btn btn-ghost btn-sm" id="undo" hidden aria-keyshortcuts="u">${icon('undo')}<span>${t('learn.undo')}</span></button>
      </div>
      <div class="progress" role="progressbar" aria-label="${t('learn.progress')}" aria-valuemin="0" aria-valuemax="100" id="progress">
        <span class="progress-bar" id="progress-bar"></span>
      </div>`;

const flashcardControls = () => html`
            <button type="button" class="btn btn-primary btn-lg" id="reveal">${t('learn.reveal')}</button>
            <rating-bar class="ratings" id="ratings" role="group" aria-label="${t('learn.rateLabel')}" hidden></rating-bar>
            <button type="button" class="btn btn-ghost" id="partner-open" aria-haspopup="dialog" hidden>${icon('chat')}<span>${t('partner.open')}</span></button>`;

const quizControls = () => html`
            <p class="small muted" id="fewer" hidden></p>
            <div class="choices" id="choices" role="group" aria-label="${t('quiz.choicesLabel')}"></div>`;

const writeControls = () => html`
            <form class="write-form" id="write-form" novalidate>
              <div class="field">
                <label for="answer-input" class="write-label">${t('write.label')}</label>
                <textarea id="answer-input" rows="2" maxlength="20000" autocomplete="off" autocapitalize="off" spellcheck="false"
                  aria-describedby="write-help" data-describedby="write-help"></textarea>
                <p class="small muted" id="write-help">${t('write.help')}</p>
              </div>
              <label class="check-row"><input type="checkbox" id="ignore-diacritics" ${localStorage.getItem(DIACRITICS) === '1' ? 'checked' : ''}> <span>${t('write.ignoreDiacritics')}</span></label>
              <div class="form-actions">
                <button type="button" class="btn btn-secondary" id="dont-know">${t('write.dontKnow')}</button>
                <button type="submit" class="btn btn-primary" id="check">${t('write.check')}</button>
              </div>
            </form>
            <div class="write-result" id="write-result" hidden></div>`;

/** Quiz and write: what was answered, and "continue" (write: also "I was right"). */
const afterAnswer = (mode) => html`
            <p class="feedback ${mode === 'write' ? 'visually-hidden' : ''}" id="feedback" role="status" aria-live="polite"></p>
            <div class="form-actions" id="after-answer" hidden>
              ${mode === 'write' ? html`<button type="button" class="btn btn-secondary" id="override">${t('write.override')}</button>` : ''}
              <button type="button" class="btn btn-primary btn-lg" id="continue">${t('quiz.continue')}</button>
            </div>`;

const CONTROLS = { flashcards: flashcardControls, quiz: quizControls, write: writeControls };

/** Where the session's end leads: the stack, or the library for a session over every stack. */
export const leaveLink = (stackId, backUrl) => ({
  href: stackId ? backUrl : '/app/stacks',
  label: t(stackId ? 'learn.toStack' : 'learn.toDashboard'),
});

const doneDialog = (leave) => html`
    <dialog class="dialog" id="done" aria-labelledby="done-title" aria-describedby="done-text">
      <div class="dialog-body">
        <div class="dialog-icon celebrate" aria-hidden="true">${icon('check')}</div>
        <h2 class="dialog-title" id="done-title">${t('learn.doneTitle')}</h2>
        <p class="muted" id="done-text"></p>
        <div id="summary"></div>
        <p class="small muted" id="done-next"></p>
        <button type="button" class="btn btn-primary btn-block" id="more" hidden></button>
        <form class="ahead-form" id="ahead-form" novalidate>
          <label for="ahead-days">
            <span>${t('learn.aheadBefore')}</span>
            <input id="ahead-days" type="number" inputmode="numeric" min="1" max="3650" value="1" aria-label="${t('learn.aheadLabel')}">
            <span>${t('learn.aheadAfter')}</span>
          </label>
          <button type="submit" class="btn btn-secondary">${t('learn.aheadGo')}</button>
          <p class="field-error" id="ahead-error" hidden>${t('learn.aheadInvalid')}</p>
        </form>
        <div class="dialog-actions">
          <button type="button" class="btn btn-secondary" id="done-undo" hidden>${icon('undo')}<span>${t('learn.undo')}</span></button>
          <a class="btn btn-primary" href="${leave.href}" id="to-dashboard" autofocus>${leave.label}</a>
        </div>
      </div>
    </dialog>`;

/** The whole page of a session in `mode` over `stack` (one stack) or every stack (no `stackId`). */
export function pageMarkup({ mode, stackId, stack, backUrl }) {
  const crumb = t(`study.mode.${mode}`);
  return html`
    <section class="page learn learn-${mode}">
      ${stackId ? stackBreadcrumb(stack, backUrl, crumb) : stacksBreadcrumb(`${t('study.allStacks')}: ${crumb}`)}
      <h1 class="visually-hidden">${crumb}: ${stackId ? stack.name : t('study.allStacks')}</h1>
      ${statusMarkup()}
      <div id="stage">
        <p class="pill pill-stack" id="from-stack" hidden></p>
        <flip-card id="card"></flip-card>
        <div class="learn-controls">
          <div class="alert alert-error" role="alert" id="rate-error" hidden></div>
          ${CONTROLS[mode]()}
          ${mode !== 'flashcards' ? afterAnswer(mode) : ''}
          <p class="kbd-help small muted hide-touch" id="keys"></p>
        </div>
      </div>
      <div id="finished" hidden></div>
    </section>
    ${doneDialog(leaveLink(stackId, backUrl))}`;
}

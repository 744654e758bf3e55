// The onboarding's markup (views/welcome.js, welcome/screen.js): a step of the three intro
// screens, the goal, the minutes per day and the interests. Rendering only.

import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { icon } from '../../ui.js';

export const INTRO = [
  { key: 'repeat', icon: 'flip' },
  { key: 'material', icon: 'sparkles' },
  { key: 'calm', icon: 'leaf' },
];
const PURPOSES = [
  { value: 'exam', icon: 'target' },
  { value: 'language', icon: 'language' },
  { value: 'curiosity', icon: 'bulb' },
  { value: 'work', icon: 'business' },
];
const MINUTES = [5, 10, 15, 20];
export const MAX_INTERESTS = 12;
const MAX_INTEREST_LENGTH = 40;
export const STEPS = INTRO.length + 3;

const introMarkup = (intro) => html`
            <span class="welcome-icon" aria-hidden="true">${icon(intro.icon)}</span>
            <h1 tabindex="-1">${t(`welcome.intro.${intro.key}.title`)}</h1>
            <p class="welcome-lead">${t(`welcome.intro.${intro.key}.text`)}</p>`;

const purposeMarkup = (answers) => html`
            <h1 tabindex="-1" id="purpose-title">${t('welcome.purposeTitle')}</h1>
            <p class="muted">${t('welcome.purposeLead')}</p>
            <fieldset class="choice-group welcome-choices" aria-labelledby="purpose-title">
              ${PURPOSES.map((p) => html`
                <label class="choice">
                  <input type="radio" name="purpose" value="${p.value}" ${answers.purpose === p.value ? 'checked' : ''}>
                  <span class="choice-icon" aria-hidden="true">${icon(p.icon)}</span>
                  <span><strong>${t(`purpose.${p.value}`)}</strong><span class="small muted">${t(`purpose.${p.value}.help`)}</span></span>
                </label>`)}
            </fieldset>`;

const minutesMarkup = (answers) => html`
            <h1 tabindex="-1" id="minutes-title">${t('welcome.minutesTitle')}</h1>
            <p class="muted" id="minutes-help">${t('welcome.minutesLead')}</p>
            <fieldset class="minutes" aria-labelledby="minutes-title" aria-describedby="minutes-help">
              ${MINUTES.map((m) => html`
                <label class="minute-option">
                  <input type="radio" name="minutes" value="${m}" ${answers.minutesPerDay === m ? 'checked' : ''}>
                  <span><strong>${m === 20 ? t('welcome.minutesMax', { count: m }) : t('welcome.minutes', { count: m })}</strong>
                  <span class="small muted">${t('welcome.cardsPerDay', { count: m * 2 })}</span></span>
                </label>`)}
            </fieldset>`;

/** An interest as a toggle button. */
export const chipMarkup = (topic, on) => html`
                <button type="button" class="chip" aria-pressed="${on ? 'true' : 'false'}" data-topic="${topic}">
                  ${icon('check')}<span>${topic}</span>
                </button>`;

const interestsMarkup = (answers, topics) => html`
            <h1 tabindex="-1" id="interests-title">${t('welcome.interestsTitle')}</h1>
            <p class="muted" id="interests-help">${t('welcome.interestsLead', { count: MAX_INTERESTS })}</p>
            <div class="chips" role="group" aria-labelledby="interests-title" aria-describedby="interests-help" id="chips">
              ${[...topics, ...answers.interests.filter((i) => !topics.includes(i))].map((topic) => chipMarkup(topic, answers.interests.includes(topic)))}
            </div>
            <div class="field own-topic">
              <label for="own-topic">${t('welcome.ownTopic')}</label>
              <div class="input-row">
                <input id="own-topic" type="text" maxlength="${MAX_INTEREST_LENGTH}" autocomplete="off" placeholder="${t('welcome.ownTopicPlaceholder')}">
                <button type="button" class="btn btn-secondary" id="add-topic">${icon('plus')}<span>${t('welcome.addTopic')}</span></button>
              </div>
            </div>
            <p class="small muted" id="interest-count" role="status">${t('welcome.chosen', { count: answers.interests.length, max: MAX_INTERESTS })}</p>`;

function stepBody(step, answers, topics) {
  if (INTRO[step]) return introMarkup(INTRO[step]);
  if (step === INTRO.length) return purposeMarkup(answers);
  if (step === INTRO.length + 1) return minutesMarkup(answers);
  return interestsMarkup(answers, topics);
}

/** The page at `step` (0 … STEPS - 1) with the answers so far. */
export function stepMarkup(step, answers, topics) {
  const last = step === STEPS - 1;
  return html`
      <section class="page page-narrow welcome">
        <div class="welcome-top">
          <ol class="dots" aria-label="${t('welcome.progress', { step: step + 1, total: STEPS })}">
            ${Array.from({ length: STEPS }, (_, i) => html`<li class="${i === step ? 'is-current' : i < step ? 'is-done' : ''}" ${i === step ? html`aria-current="step"` : ''}><span class="visually-hidden">${t('welcome.stepOf', { step: i + 1, total: STEPS })}</span></li>`)}
          </ol>
          <button type="button" class="btn btn-ghost btn-sm" data-skip>${t('welcome.skip')}</button>
        </div>
        <form class="panel welcome-card" id="welcome-form" novalidate>
          ${stepBody(step, answers, topics)}
          <div class="alert alert-error" role="alert" id="welcome-error" tabindex="-1" hidden></div>
          <div class="form-actions welcome-actions">
            ${step > 0 ? html`<button type="button" class="btn btn-secondary" data-back>${icon('back')}<span>${t('back')}</span></button>` : ''}
            <span class="spacer"></span>
            <button type="submit" class="btn btn-primary">${last ? html`${icon('check')}<span>${t('welcome.finish')}</span>` : html`<span>${t('welcome.next')}</span>${icon('chevron')}`}</button>
          </div>
        </form>
      </section>`;
}

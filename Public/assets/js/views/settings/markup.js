// The settings page's sections as markup (views/settings.js, settings/screen.js): profile,
// account, sign-in with other accounts (identities-markup.js), learning, reminders, leaderboard, onboarding answers, appearance, colour theme, AI
// assistants and access tokens (tokens-markup.js), data and backup, deleting the account.
// Rendering only.

import { html } from '../../html.js';
import { LANGUAGES, currentLanguage, t } from '../../i18n.js';
import { THEMES, gameElements } from '../../account.js';
import { backupPanel } from '../../backup-panel.js';
import { icon } from '../../ui.js';
import { APPEARANCES, appearance } from './appearances.js';
import { easyDaysSection } from './easy-days.js';
import { tokensSection } from './tokens-markup.js';
import { identitiesSection } from './identities-markup.js';

export const GOAL_MIN = 1;
export const GOAL_MAX = 500;

/** Every IANA zone the browser knows (the current one included even when it does not). */
function timeZones(current) {
  let zones = [];
  try { zones = Intl.supportedValuesOf('timeZone'); } catch { zones = []; }
  if (current && !zones.includes(current)) zones = [current, ...zones];
  return zones;
}

/** A switch row (a checkbox with role="switch"; Space toggles it, the whole row is its label). */
export function toggle(id, label, help, checked) {
  return html`
    <label class="switch-row" for="${id}">
      <span class="switch-text">
        <strong id="${id}-label">${label}</strong>
        <span class="small muted" id="${id}-help">${help}</span>
      </span>
      <input id="${id}" type="checkbox" role="switch" class="switch" aria-labelledby="${id}-label"
        aria-describedby="${id}-help" ${checked ? 'checked' : ''}>
    </label>`;
}

const profileSection = ({ user, zone }) => html`
      <section class="panel" aria-labelledby="profile-title">
        <h2 id="profile-title">${t('settings.profile')}</h2>
        <form id="profile-form" class="stack-form" novalidate>
          <div class="field">
            <label for="profile-name">${t('auth.name')}</label>
            <input id="profile-name" name="name" type="text" autocomplete="name" maxlength="100" value="${user.name ?? ''}">
          </div>
          <div class="field">
            <label for="profile-zone">${t('settings.timeZone')}</label>
            <select id="profile-zone" name="timeZone" aria-describedby="profile-zone-help" data-describedby="profile-zone-help">
              ${timeZones(zone).map((z) => html`<option value="${z}" ${z === zone ? 'selected' : ''}>${z.replace(/_/g, ' ')}</option>`)}
            </select>
            <p class="help" id="profile-zone-help">${t('settings.timeZoneHelp')}</p>
          </div>
          <div class="form-actions"><button type="submit" class="btn btn-primary">${t('settings.saveProfile')}</button></div>
        </form>
      </section>`;

// "Passwort ändern", or, for an account a provider's sign-in made (`passwordSet` false), "Passwort
// festlegen" without the current password (the server takes it shortly after signing in).
const passwordForm = (user) => {
  const own = user.passwordSet !== false;
  return html`
          <p class="muted">${t('settings.mail', { mail: user.mail ?? '' })}</p>
          <form id="password-form" class="stack-form" novalidate data-mode="${own ? 'change' : 'set'}">
            <input type="text" name="username" autocomplete="username" value="${user.mail ?? ''}" hidden>
            ${own ? html`
            <div class="field">
              <label for="current-password">${t('settings.currentPassword')}</label>
              <input id="current-password" name="current" type="password" autocomplete="current-password" maxlength="72">
            </div>` : html`
            <p class="help" id="set-password-text">${t('settings.noOwnPassword')}</p>`}
            <div class="field">
              <label for="new-password">${t(own ? 'settings.newPassword' : 'settings.ownPassword')}</label>
              <input id="new-password" name="next" type="password" autocomplete="new-password" maxlength="72"
                aria-describedby="new-password-help" data-describedby="new-password-help">
              <p class="help" id="new-password-help">${t('auth.passwordHint')}</p>
            </div>
            <div class="form-actions"><button type="submit" class="btn btn-primary">${t(own ? 'settings.changePassword' : 'settings.setPassword')}</button></div>
          </form>`;
};

const accountSection = ({ user, guest }) => html`
      <section class="panel" aria-labelledby="account-title">
        <h2 id="account-title">${t('settings.account')}</h2>
        ${guest ? html`
          <p class="muted">${t('settings.guestText')}</p>
          <div><button type="button" class="btn btn-primary" id="secure-account">${icon('shield')}<span>${t('guest.secure')}</span></button></div>` : passwordForm(user)}
      </section>`;

const learningSection = ({ settings }) => html`
      <section class="panel" aria-labelledby="learning-title">
        <h2 id="learning-title">${t('settings.learning')}</h2>
        <form id="goal-form" class="stack-form" novalidate>
          <div class="field">
            <label for="daily-goal">${t('settings.dailyGoal')}</label>
            <div class="input-row">
              <span class="input-suffix">
                <input id="daily-goal" name="dailyGoal" type="number" inputmode="numeric" min="${GOAL_MIN}" max="${GOAL_MAX}" step="1"
                  value="${settings.dailyGoal}" aria-describedby="daily-goal-help" data-describedby="daily-goal-help">
                <span aria-hidden="true">${t('settings.cardsPerDay')}</span>
              </span>
              <button type="submit" class="btn btn-secondary">${t('save')}</button>
            </div>
            <p class="help" id="daily-goal-help">${t('settings.dailyGoalHelp')}</p>
          </div>
        </form>
        <fieldset class="choice-group" id="language-choice">
          <legend>${t('settings.language')}</legend>
          ${LANGUAGES.map((code) => html`
            <label class="choice">
              <input type="radio" name="language" value="${code}" ${currentLanguage() === code ? 'checked' : ''}>
              <span lang="${code}"><strong>${t(`settings.language.${code}`)}</strong></span>
            </label>`)}
        </fieldset>
        ${toggle('game-elements', t('settings.gameElements'), t('settings.gameElementsHelp'), settings.gameElements !== false)}
        ${toggle('focus-mode', t('settings.focusMode'), t('settings.focusModeHelp'), settings.focusMode)}
      </section>`;

const remindersSection = ({ settings, user }) => html`
      <section class="panel" aria-labelledby="reminders-title">
        <h2 id="reminders-title">${t('settings.reminders')}</h2>
        ${toggle('reminders', t('settings.remindersSwitch'), t('settings.remindersHelp'), settings.remindersEnabled)}
        <div class="field">
          <label for="reminder-time">${t('settings.reminderTime')}</label>
          <input id="reminder-time" type="time" value="${settings.reminderTime || '18:00'}" class="time-input" step="60">
        </div>
        <p class="small muted" id="push-status" role="status"></p>
      </section>

      <section class="panel gamified" aria-labelledby="leaderboard-title" ${gameElements() ? '' : 'hidden'}>
        <h2 id="leaderboard-title">${t('settings.leaderboard')}</h2>
        ${toggle('leaderboard', t('settings.leaderboardSwitch'), t('settings.leaderboardHelp', { name: user.name ?? '' }), settings.leaderboardOptIn)}
      </section>`;

const answerText = (value, words) => (value ? words(value) : t('settings.notAnswered'));

const onboardingSection = ({ settings }) => {
  const onboarding = settings.onboarding || {};
  return html`
      <section class="panel" aria-labelledby="onboarding-title">
        <h2 id="onboarding-title">${t('settings.onboarding')}</h2>
        <dl class="answers">
          <div><dt>${t('settings.purpose')}</dt><dd id="answer-purpose">${answerText(onboarding.purpose, (p) => t(`purpose.${p}`))}</dd></div>
          <div><dt>${t('settings.minutes')}</dt><dd id="answer-minutes">${answerText(onboarding.minutesPerDay,
            (m) => t(m >= 20 ? 'welcome.minutesMax' : 'welcome.minutes', { count: m }))}</dd></div>
          <div><dt>${t('settings.interests')}</dt><dd id="answer-interests">${answerText((onboarding.interests || []).length && onboarding.interests, (i) => i.join(', '))}</dd></div>
        </dl>
        <div class="actions">
          <a class="btn btn-secondary" href="/app/welcome?step=questions&amp;next=%2Fapp%2Fsettings">${icon('pencil')}<span>${t('settings.editAnswers')}</span></a>
          <a class="btn btn-ghost" href="/app/welcome?next=%2Fapp%2Fsettings">${t('settings.redoOnboarding')}</a>
        </div>
      </section>`;
};

const lookSections = ({ settings }) => html`
      <section class="panel" aria-labelledby="appearance-title">
        <h2 id="appearance-title">${t('settings.appearance')}</h2>
        <fieldset class="theme-choice appearance-choice" id="appearance-choice" aria-describedby="appearance-help">
          <legend class="visually-hidden">${t('settings.appearance')}</legend>
          ${APPEARANCES.map((a) => html`
            <label class="theme-option">
              <input type="radio" name="appearance" value="${a}" ${appearance() === a ? 'checked' : ''}>
              <span class="appearance-swatch appearance-${a}" aria-hidden="true"></span>
              <span>${t(`appearance.${a}`)}</span>
            </label>`)}
        </fieldset>
        <p class="small muted" id="appearance-help">${t('settings.appearanceHelp')}</p>
      </section>

      <section class="panel" aria-labelledby="theme-title">
        <h2 id="theme-title">${t('settings.theme')}</h2>
        <fieldset class="theme-choice" id="theme-choice">
          <legend class="visually-hidden">${t('settings.theme')}</legend>
          ${[null, ...THEMES.filter((th) => (settings.unlockedThemes || []).includes(th))].map((th) => html`
            <label class="theme-option">
              <input type="radio" name="theme" value="${th ?? ''}" ${(settings.theme ?? null) === th ? 'checked' : ''}>
              <span class="theme-swatch theme-${th ?? 'standard'}" aria-hidden="true"></span>
              <span>${t(`theme.${th ?? 'standard'}`)}</span>
            </label>`)}
        </fieldset>
        ${(settings.unlockedThemes || []).length ? '' : html`<p class="small muted">${t('settings.themesHint')}</p>`}
      </section>`;

const deleteSection = ({ guest }) => html`
      <section class="panel" aria-labelledby="delete-title">
        <h2 id="delete-title">${t('settings.delete')}</h2>
        <p class="muted">${t(guest ? 'settings.deleteGuestText' : 'settings.deleteText')}</p>
        <div><button type="button" class="btn btn-danger-ghost" id="delete-account">${icon('trash')}<span>${t('settings.deleteButton')}</span></button></div>
      </section>`;

/** The whole page; `page`: {settings, user, guest, zone, providers}. */
export const settingsMarkup = (page) => html`
    <section class="page page-narrow settings">
      <header class="page-header"><div><h1>${t('settings.title')}</h1><p class="muted">${t('settings.lead')}</p></div></header>
      ${profileSection(page)}
      ${accountSection(page)}
      ${identitiesSection(page)}
      ${learningSection(page)}
      <section class="panel" aria-labelledby="scheduler-title" id="scheduler-panel"></section>
      ${easyDaysSection(page)}
      ${remindersSection(page)}
      ${onboardingSection(page)}
      ${lookSections(page)}
      ${tokensSection()}
      ${backupPanel()}
      ${deleteSection(page)}
    </section>`;

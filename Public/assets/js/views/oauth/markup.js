// The OAuth consent page as markup (views/oauth/screen.js makes it work): who asks, what the
// permission allows, where the learner goes afterwards, the access token it makes; and the page
// that says why a request cannot be allowed (no buttons). Rendering only.

import { html } from '../../html.js';
import { t } from '../../i18n.js';
import { icon } from '../../ui.js';

/** The host the learner returns to (the whole address when it has none, e.g. an app's scheme). */
function hostOf(address) {
  try {
    return new URL(address).host || address;
  } catch {
    return address;
  }
}

const scopeItem = (scope) => html`
          <li><span class="consent-check" aria-hidden="true">${icon('check')}</span><span>${t(`oauth.scope.${scope}`)}</span></li>`;

/** The consent: `name` of the client, `scopes` (['read'] or ['read', 'write']), `redirectUri`. */
export const consentMarkup = ({ name, scopes, redirectUri }) => html`
    <section class="auth consent">
      <div class="auth-card consent-card" id="consent">
        <img class="auth-logo" src="/assets/icons/logo.svg" alt="" width="48" height="48">
        <h1 id="consent-title" tabindex="-1">${t('oauth.title')}</h1>
        <p class="consent-lead">${t('oauth.lead', { name })}</p>
        <h2 class="consent-subtitle" id="consent-scopes-title">${t('oauth.allowsTitle')}</h2>
        <ul class="consent-scopes" aria-labelledby="consent-scopes-title">
          ${scopes.map(scopeItem)}
        </ul>
        <p class="muted">${t('oauth.returnTo', { host: hostOf(redirectUri) })}</p>
        <p class="help consent-note">${t('oauth.tokenNote', { name })}
          <a href="/app/settings#tokens">${t('oauth.tokenLink')}</a>.</p>
        <div class="alert alert-error" role="alert" id="consent-error" tabindex="-1" hidden></div>
        <p class="visually-hidden" role="status" id="consent-status"></p>
        <div class="consent-actions">
          <button type="button" class="btn btn-primary" id="consent-allow" data-approve="true">${t('oauth.allow')}</button>
          <button type="button" class="btn btn-secondary" id="consent-deny" data-approve="false">${t('oauth.deny')}</button>
        </div>
      </div>
    </section>`;

/** Why the request cannot be allowed: `texts`, one sentence each; no buttons, a way home. */
export const problemMarkup = (texts) => html`
    <section class="auth consent">
      <div class="auth-card consent-card" id="consent">
        <img class="auth-logo" src="/assets/icons/logo.svg" alt="" width="48" height="48">
        <h1 id="consent-title" tabindex="-1">${t('oauth.problemTitle')}</h1>
        <div class="alert alert-error" role="alert" id="consent-error">
          ${texts.map((text) => html`<p>${text}</p>`)}
        </div>
        <p class="auth-switch"><a href="/app/home">${t('oauth.toHome')}</a></p>
      </div>
    </section>`;

// The settings' "Anmeldung mit anderen Konten" as markup (settings/identities.js makes it work):
// the section, the linked providers (name, address, since when) with "Trennen", the empty state
// and the note that an account without a password of its own must set one before it unlinks.
// Rendering only.

import { html } from '../../html.js';
import { locale, t } from '../../i18n.js';
import { icon, loadingView } from '../../ui.js';
import { userZone } from '../../progress-ui.js';

/** The section as the settings page draws it, its list loading; shown once the server offers a
 * provider (`providers`), or later when the account turns out to have one linked. */
export const identitiesSection = ({ providers, guest }) => html`
      <section class="panel identities" id="identities" aria-labelledby="identities-title" ${!guest && providers?.length ? '' : 'hidden'}>
        <h2 id="identities-title">${t('identities.title')}</h2>
        <p class="muted">${t('identities.lead')}</p>
        <div class="identity-host" id="identity-list">${loadingView(t('identities.loading'))}</div>
      </section>`;

/** A moment as a date in the learner's zone ("2. Dezember 2025"). */
function dateText(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '–';
  try {
    return new Intl.DateTimeFormat(locale(), { dateStyle: 'long', timeZone: userZone() }).format(date);
  } catch {
    return new Intl.DateTimeFormat(locale(), { dateStyle: 'long' }).format(date);
  }
}

const identityMarkup = (identity, index) => html`
          <li class="identity-item">
            <div class="identity-text">
              <h3 class="identity-name" id="identity-${index}-name">${identity.name || identity.provider}</h3>
              <p class="small muted identity-facts">
                <span class="identity-mail">${identity.mail || t('identities.noMail')}</span>
                <span>${t('identities.linkedAt', { date: dateText(identity.linkedAt) })}</span>
              </p>
            </div>
            <button type="button" class="btn btn-danger-ghost btn-sm" data-unlink="${identity.provider}"
              aria-describedby="identity-${index}-name">${icon('x')}<span>${t('identities.unlink')}</span></button>
          </li>`;

/** Where an account without a password of its own gets one: the account section's form. */
const passwordNote = (text, refused) => html`
        <div class="alert ${refused ? 'alert-error' : 'alert-info'} identity-note" id="${refused ? 'identities-refused' : 'identities-no-password'}"
          ${refused ? html`role="alert" tabindex="-1"` : ''}>
          <p>${text}</p>
          <p><button type="button" class="btn btn-link" data-set-password>${t('identities.setPassword')}</button></p>
        </div>`;

/** The list or its empty state; `offered`: the server has providers (how to link one is said);
 * `refused`: the name of the provider an unlink was just refused for (no password). */
export const identityListMarkup = ({ identities, passwordSet }, { offered, refused }) => html`
        ${identities.length
          ? html`<ul class="identity-list" aria-labelledby="identities-title">${identities.map(identityMarkup)}</ul>`
          : html`<p class="muted" id="identities-empty">${t('identities.empty')}</p>
                 ${offered ? html`<p class="help">${t('identities.emptyHelp')}</p>` : ''}`}
        ${refused ? passwordNote(t('identities.passwordRequired', { name: refused }), true)
          : !passwordSet && identities.length ? passwordNote(t('identities.noPassword'), false) : ''}`;

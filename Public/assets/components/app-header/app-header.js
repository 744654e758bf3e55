// <app-header>: logo, the signed-in user, language switch and logout.
// Emits `language-change` (detail: code) and `logout`; the app shell acts on them.

import { html, render } from '../../js/html.js';
import { currentLanguage, rememberLanguage, t } from '../../js/i18n.js';
import { session } from '../../js/api/client.js';
import { icon } from '../../js/ui.js';

class AppHeader extends HTMLElement {
  #signedIn = false;

  set signedIn(value) {
    if (value === this.#signedIn && this.firstChild) return;
    this.#signedIn = value;
    this.render();
  }

  get signedIn() { return this.#signedIn; }

  connectedCallback() {
    if (!this.firstChild) this.render();
    this.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-action]');
      if (!button) return;
      if (button.dataset.action === 'lang') {
        const next = currentLanguage() === 'de' ? 'en' : 'de';
        rememberLanguage(next);
        this.dispatchEvent(new CustomEvent('language-change', { detail: next }));
      } else if (button.dataset.action === 'logout') {
        this.dispatchEvent(new CustomEvent('logout'));
      }
    });
  }

  render() {
    const user = this.#signedIn ? session.user() : null;
    const home = this.#signedIn ? '/app/stacks' : '/';
    render(this, html`
      <div class="header-inner">
        <a class="brand" href="${home}">
          <img src="/assets/icons/logo.svg" alt="" width="32" height="32">
          <span class="brand-name">${t('app.name')}</span>
        </a>
        <div class="header-actions">
          <button type="button" class="btn btn-ghost btn-sm" data-action="lang" lang="${currentLanguage() === 'de' ? 'en' : 'de'}" aria-label="${t('lang.switchLabel')}">
            ${icon('globe')}<span class="hide-sm">${t('lang.switch')}</span><span class="show-sm" aria-hidden="true">${currentLanguage() === 'de' ? 'EN' : 'DE'}</span>
          </button>
          ${user ? html`
            <span class="user-chip" title="${t('auth.userMenu', { name: user.name })}">
              <span class="avatar" aria-hidden="true">${(user.name || '?').trim().slice(0, 1).toUpperCase()}</span>
              <span class="user-name hide-sm">${user.name}</span>
            </span>
            <button type="button" class="btn btn-ghost btn-sm btn-logout" data-action="logout">
              ${icon('logout')}<span>${t('auth.logout')}</span>
            </button>` : ''}
        </div>
      </div>`);
  }
}

/** Defines the <app-header> element (once). */
export function registerAppHeader() {
  if (!customElements.get('app-header')) customElements.define('app-header', AppHeader);
}

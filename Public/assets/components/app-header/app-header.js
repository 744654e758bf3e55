// <app-header>: logo, language switch, the signed-in user, "Konto sichern" for a guest, logout,
// and the app's navigation (Start, Stapel, Entdecken, Einstellungen). The leaderboard is not in the
// navigation: it belongs to the learner's progress (linked from the statistics and from the home
// screen's progress; its page counts as "Stapel"). Emits `language-change` (detail: code) and
// `logout`; the app shell acts on them.

import { html, render } from '../../js/html.js';
import { currentLanguage, rememberLanguage, t } from '../../js/i18n.js';
import { session } from '../../js/api/client.js';
import { icon } from '../../js/ui.js';
import { isGuest, saveSettings } from '../../js/account.js';

const NAV = [
  { href: '/app/home', key: 'nav.home', icon: 'home', match: /^\/app\/home$/ },
  { href: '/app/stacks', key: 'nav.library', icon: 'cards', match: /^\/app\/(stacks|study|learn|feed|stats|leaderboard)/ },
  { href: '/app/explore', key: 'nav.explore', icon: 'compass', match: /^\/app\/explore/ },
  { href: '/app/settings', key: 'nav.settings', icon: 'sliders', match: /^\/app\/settings$/ },
];

/** Screens that stand alone, without the navigation (the onboarding). */
const NO_NAV = new Set(['welcome']);

class AppHeader extends HTMLElement {
  #signedIn = false;
  #view = '';

  set signedIn(value) {
    if (value === this.#signedIn && this.firstChild) return;
    this.#signedIn = value;
    this.render();
  }

  get signedIn() { return this.#signedIn; }

  /** The view being shown: marks the current navigation entry. */
  set view(name) {
    const nav = !NO_NAV.has(name);
    const changed = nav !== !NO_NAV.has(this.#view);
    this.#view = name;
    if (changed) this.render();
    else this.markCurrent();
  }

  connectedCallback() {
    if (!this.firstChild) this.render();
    this.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-action]');
      if (!button) return;
      const action = button.dataset.action;
      if (action === 'lang') {
        const next = currentLanguage() === 'de' ? 'en' : 'de';
        rememberLanguage(next);
        // Reminders come in the learner's language too (a server without settings ignores it).
        if (this.#signedIn) saveSettings({ language: next }).catch(() => {});
        this.dispatchEvent(new CustomEvent('language-change', { detail: next }));
      } else if (action === 'logout') {
        this.dispatchEvent(new CustomEvent('logout'));
      } else if (action === 'upgrade') {
        import('../../js/upgrade-dialog.js').then((m) => m.openUpgradeDialog()).catch(() => {});
      }
    });
    // An upgraded guest loses the call to action.
    document.addEventListener('session-change', () => this.render());
  }

  markCurrent() {
    const path = location.pathname;
    for (const link of this.querySelectorAll('.app-nav a')) {
      const entry = NAV.find((n) => n.href === link.getAttribute('href'));
      if (entry?.match.test(path)) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
  }

  render() {
    const user = this.#signedIn ? session.user() : null;
    const guest = Boolean(user) && isGuest();
    const home = this.#signedIn ? '/app/home' : '/';
    const showNav = Boolean(user) && !NO_NAV.has(this.#view);
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
          ${guest ? html`
            <button type="button" class="btn btn-secondary btn-sm btn-upgrade" data-action="upgrade">
              ${icon('shield')}<span>${t('guest.secure')}</span>
            </button>` : ''}
          ${user ? html`
            <span class="user-chip" title="${t(guest ? 'guest.userMenu' : 'auth.userMenu', { name: user.name })}">
              <span class="avatar" aria-hidden="true">${(user.name || '?').trim().slice(0, 1).toUpperCase()}</span>
              <span class="user-name hide-sm">${user.name}</span>
            </span>
            <button type="button" class="btn btn-ghost btn-sm btn-logout" data-action="logout" aria-label="${t('auth.logout')}">
              ${icon('logout')}<span class="logout-label">${t('auth.logout')}</span>
            </button>` : ''}
        </div>
        ${showNav ? html`
          <nav class="app-nav" aria-label="${t('nav.label')}">
            ${NAV.map((n) => html`
              <a href="${n.href}" class="app-nav-link">${icon(n.icon)}<span>${t(n.key)}</span></a>`)}
          </nav>` : ''}
      </div>`);
    this.classList.toggle('has-nav', showNav);
    this.classList.toggle('is-guest', guest);
    this.markCurrent();
  }
}

/** Defines the <app-header> element (once). */
export function registerAppHeader() {
  if (!customElements.get('app-header')) customElements.define('app-header', AppHeader);
}

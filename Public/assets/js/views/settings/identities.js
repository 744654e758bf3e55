// The settings' "Anmeldung mit anderen Konten": the OpenID providers linked to the account
// (`GET /me/identities`), each unlinked after asking (`DELETE /me/identities/{provider}`). The
// server refuses to unlink while the account has no password of its own (409
// `password_required`): the section says so up front and then, with the way to set one (the account
// section's "Passwort festlegen"). Shown when the server offers a provider or the account has one linked. Part of the
// settings screen: its listeners and requests end with it. Markup: settings/identities-markup.js;
// strings: i18n/oidc.*.js.

import { render } from '../../html.js';
import { t } from '../../i18n.js';
import { hasCode } from '../../api/client.js';
import { oidcApi } from '../../api/oidc.js';
import { confirmDialog, errorText, errorView, loadingView, toast } from '../../ui.js';
import { identityListMarkup } from './identities-markup.js';

export class IdentitiesSection {
  /** {identities, passwordSet} once loaded. */
  #data = null;

  constructor(screen) {
    this.screen = screen;
    this.section = screen.$('#identities');
    this.host = screen.$('#identity-list');
    this.offered = Boolean(screen.providers?.length);
  }

  start() {
    if (!this.section || this.screen.guest) return;
    this.screen.on('#identity-list', 'click', (event) => this.#click(event));
    this.#load();
  }

  get #aborted() { return this.screen.signal.aborted; }

  async #load() {
    render(this.host, loadingView(t('identities.loading')));
    try {
      this.#data = await oidcApi.identities({ signal: this.screen.signal });
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401 || this.#aborted) return;
      render(this.host, errorView(errorText(error, 'identities.loadError')));
      return;
    }
    if (this.#aborted) return;
    this.#data.identities ||= [];
    // A provider linked before the server stopped offering it still shows (and can be unlinked).
    this.section.hidden = !this.offered && !this.#data.identities.length;
    this.#draw();
  }

  /** Draws the list; `refused`: the provider an unlink was refused for (its note takes the focus). */
  #draw(refused = '') {
    render(this.host, identityListMarkup(this.#data, { offered: this.offered, refused }));
    if (refused) this.host.querySelector('#identities-refused')?.focus();
  }

  #click(event) {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.hasAttribute('data-retry')) this.#load();
    else if (button.dataset.unlink) this.#unlink(button.dataset.unlink);
    else if (button.hasAttribute('data-set-password')) this.screen.$('#new-password')?.focus();
  }

  async #unlink(provider) {
    const identity = this.#data?.identities.find((x) => x.provider === provider);
    if (!identity) return;
    const name = identity.name || provider;
    const ok = await confirmDialog({
      title: t('identities.unlinkTitle', { name }), text: t('identities.unlinkText', { name }), confirmLabel: t('identities.unlink'),
    });
    if (!ok || this.#aborted) return;
    try {
      await oidcApi.unlink(provider);
    } catch (error) {
      if (error.status === 401 || this.#aborted) return;
      if (hasCode(error, 'password_required')) {
        this.#data.passwordSet = false;
        this.#draw(name);
        return;
      }
      // 404: it is not linked any more, as good as unlinked.
      if (error.status !== 404) { toast(errorText(error, 'identities.unlinkError'), 'error'); return; }
    }
    if (this.#aborted) return;
    this.#data.identities = this.#data.identities.filter((x) => x.provider !== provider);
    this.#draw();
    const heading = this.screen.$('#identities-title');
    heading.setAttribute('tabindex', '-1');
    heading.focus();
    toast(t('identities.unlinked', { name }));
  }
}

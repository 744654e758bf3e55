// The OAuth consent page's screen (views/oauth-consent.js): the one owner of its state (the
// request as the client sent it, whether an answer is being sent). "Erlauben" and "Ablehnen" send
// the answer (`POST /oauth/authorize`) and then leave the app for the address the server returns:
// the client's own, with the code or the refusal. Its listeners and request end with the clean-up
// `start()` returns.

import { render } from '../../html.js';
import { t } from '../../i18n.js';
import { api, hasCode } from '../../api/client.js';
import { announce, errorText, setBusy } from '../../ui.js';
import { consentMarkup } from './markup.js';

/** What a refused answer means, in words (the server's own message where none fits). */
function sendErrorText(error) {
  if (hasCode(error, 'invalid_client')) return t('oauth.unknownClient');
  if (error.status !== 400) return errorText(error, 'oauth.sendError');
  if (hasCode(error, 'invalid_scope')) return t('oauth.badScope');
  return error.message || t('oauth.sendError');
}

export class ConsentScreen {
  #controller = new AbortController();
  #sending = false;

  /** `request`: the client's parameters (readRequest); `client`: `{name}` from the server. */
  constructor(root, request, client) {
    this.root = root;
    this.request = request;
    this.client = client;
  }

  /** Draws the consent with the focus on its heading; returns the clean-up. */
  start() {
    const { request, client } = this;
    render(this.root, consentMarkup({ name: client.name, scopes: request.scopes, redirectUri: request.redirectUri }));
    this.buttons = [...this.root.querySelectorAll('[data-approve]')];
    this.error = this.root.querySelector('#consent-error');
    this.status = this.root.querySelector('#consent-status');
    const { signal } = this.#controller;
    for (const button of this.buttons) {
      button.addEventListener('click', () => this.#answer(button), { signal });
    }
    this.root.querySelector('h1').focus({ preventScroll: true });
    return () => this.#controller.abort();
  }

  async #answer(button) {
    if (this.#sending) return;
    this.#sending = true;
    this.error.hidden = true;
    this.buttons.forEach((b) => { b.disabled = true; });
    setBusy(button, true);
    announce(this.status, t('oauth.sending'));
    const { request } = this;
    try {
      const { redirectTo } = await api.oauthAuthorize({
        clientId: request.clientId,
        redirectUri: request.redirectUri,
        codeChallenge: request.codeChallenge,
        codeChallengeMethod: request.codeChallengeMethod,
        scope: request.scope,
        state: request.state,
        approve: button.dataset.approve === 'true',
      }, { signal: this.#controller.signal });
      // Leaves the app for the client's address (the buttons stay disabled meanwhile).
      location.assign(redirectTo);
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      this.#sending = false;
      setBusy(button, false);
      this.buttons.forEach((b) => { b.disabled = false; });
      this.status.textContent = '';
      this.error.textContent = sendErrorText(error);
      this.error.hidden = false;
      button.focus();
    }
  }
}

// Sign-in with other accounts (OpenID Connect, docs/oidc.md): every call of the login and sign-up
// pages' provider buttons, of the way back from a provider and of the settings' linked accounts
// (through client.js; apart from it so that the first load stays small).

import { enc, request } from './client.js';

/** Where the browser goes (a full page load, not fetch) to sign in with provider `id`. */
export const oidcStartUrl = (id) => `/api/v1/auth/oidc/${enc(id)}/start`;

export const oidcApi = {
  /** The providers the login and sign-up pages offer: `{providers: [{id, name}]}`. */
  providers: (opts) => request('GET', '/auth/oidc/providers', undefined, { auth: false, ...opts }),
  /** The one-time code of a finished provider sign-in for a session (an AuthResponse); 409
   * `oidc_link_required` ({mail, provider}) when an account with that address must confirm first. */
  session: (code) => request('POST', '/auth/oidc/session', { code }, { auth: false }),
  /** Links the provider to that account with its password, then signs in (an AuthResponse). */
  link: (code, password) => request('POST', '/auth/oidc/link', { code, password }, { auth: false }),
  /** The providers linked to this account: `{identities: [{provider, name, mail, linkedAt}], passwordSet}`. */
  identities: (opts) => request('GET', '/me/identities', undefined, opts),
  /** Unlinks a provider; 409 `password_required` while the account has no password of its own. */
  unlink: (provider) => request('DELETE', `/me/identities/${enc(provider)}`),
};

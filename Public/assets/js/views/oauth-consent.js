// The OAuth consent page (/app/oauth/authorize, docs/mcp.md): an MCP client (Claude …) that signs
// in by OAuth sends the learner's browser here with `response_type=code`, `client_id`,
// `redirect_uri`, `code_challenge`, `code_challenge_method=S256`, `state` and `scope` (read and/or
// write; none: read). Signed out, the router's guard sends the learner to the login with this very
// address as `next`, and signing in (or up) comes back. The page checks the request, asks the
// server who the client is (`GET /oauth/client`: never a redirect to an address the client did not
// register) and shows what it may do; the answer leaves the app for the client's address.
//
// This module reads the request and loads the client; oauth/screen.js owns the consent's state,
// oauth/markup.js draws it; strings: i18n/oauth.*.js.

import { html, render } from '../html.js';
import { loadStrings, t } from '../i18n.js';
import { api, hasCode } from '../api/client.js';
import { errorText, errorView, loadingView, retryable } from '../ui.js';
import { problemMarkup } from './oauth/markup.js';
import { ConsentScreen } from './oauth/screen.js';

const SCOPES = ['read', 'write'];

/** The request's parameters as the server takes them back, and what is wrong with it (keys with
 * their parameters, for t()). */
function readRequest(query) {
  const value = (name) => query.get(name) || '';
  const request = {
    clientId: value('client_id'),
    redirectUri: value('redirect_uri'),
    codeChallenge: value('code_challenge'),
    codeChallengeMethod: value('code_challenge_method'),
    scope: query.has('scope') ? query.get('scope') : null,
    state: query.has('state') ? query.get('state') : null,
  };
  const words = (request.scope || '').split(' ').filter(Boolean);
  request.scopes = words.includes('write') ? ['read', 'write'] : ['read'];
  const problems = [];
  if (value('response_type') !== 'code') problems.push(['oauth.badType']);
  if (request.codeChallengeMethod !== 'S256') problems.push(['oauth.badMethod']);
  const missing = [['client_id', request.clientId], ['redirect_uri', request.redirectUri],
    ['code_challenge', request.codeChallenge]].filter(([, given]) => !given).map(([name]) => name);
  if (missing.length) problems.push(['oauth.missing', { names: missing.join(', ') }]);
  else if (request.codeChallenge.length < 43 || request.codeChallenge.length > 128) problems.push(['oauth.badChallenge']);
  if (words.some((word) => !SCOPES.includes(word))) problems.push(['oauth.badScope']);
  return { request, problems };
}

/** The page that says why the request cannot be allowed, with the focus on its heading. */
function showProblem(root, texts) {
  render(root, problemMarkup(texts));
  root.querySelector('h1').focus({ preventScroll: true });
}

export const mount = retryable(mountConsent);

async function mountConsent(root, ctx, reload) {
  const stale = () => Boolean(ctx.current) && !ctx.current();
  render(root, loadingView(t('loading')));
  const { request, problems } = readRequest(ctx.query);
  let client = null;
  try {
    await loadStrings('oauth');
    if (!problems.length) {
      client = await api.oauthClient(request.clientId, request.redirectUri);
    }
  } catch (error) {
    if (error.status === 401 || stale()) return undefined;
    if (error.status === 400 || hasCode(error, 'invalid_client')) {
      // An unknown client (404) or an address it did not register (400): said so, nothing to allow.
      showProblem(root, [t('oauth.unknownClient')]);
      return undefined;
    }
    render(root, html`<section class="page page-narrow">${errorView(errorText(error))}</section>`);
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  if (stale()) return undefined;
  if (problems.length) {
    showProblem(root, [t('oauth.invalidRequest'), ...problems.map(([key, params]) => t(key, params))]);
    return undefined;
  }
  return new ConsentScreen(root, request, client).start();
}

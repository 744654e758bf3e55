// Sign-in with other accounts (OpenID Connect, docs/oidc.md) on the login and sign-up pages
// (views/auth.js): the "Weiter mit …" buttons under the form, which leave for the server's start
// (a full page load) after noting where the sign-in started; and the way back, which the server
// sends to `/app/login?oidc=<one-time code>` or `?oidcError=<reason>`. The code leaves the URL at
// once and is exchanged for a session (`POST /auth/oidc/session`); an account that already has the
// provider's address is linked only with its password (the link form, `POST /auth/oidc/link`).
// Strings: i18n/oidc.*.js (loadStrings('oidc')).

import { html, render } from '../../html.js';
import { loadStrings, t } from '../../i18n.js';
import { hasCode } from '../../api/client.js';
import { oidcApi, oidcStartUrl } from '../../api/oidc.js';
import { defineIcons, fieldError, icon, loadingView, setBusy } from '../../ui.js';

defineIcons({ signin: 'M15 3h4a2 2 0 0 1 2 2v14a2 2 0 0 1-2 2h-4M10 17l5-5-5-5M15 12H3' });

/** What this tab notes while it is at the provider: {provider, name, next, register}. */
const STARTED = 'fc.oidc';

/** Reasons that mean the provider's answer could not be verified: one sentence for all of them. */
const UNVERIFIED = new Set(['signature_invalid', 'issuer_invalid', 'audience_invalid', 'token_expired', 'nonce_invalid']);
/** Reasons with a sentence of their own. */
const WORDED = new Set(['state_invalid', 'access_denied', 'mail_unverified', 'mail_missing', 'provider_unavailable',
  'provider_unknown', 'exchange_failed']);

/** A learner who signed up a moment ago (the provider made the account), before the onboarding. */
const NEW_ACCOUNT_MS = 10 * 60_000;

function readStarted() {
  try {
    const started = JSON.parse(sessionStorage.getItem(STARTED));
    return started && typeof started === 'object' ? started : {};
  } catch {
    return {};
  }
}

/** Leaves for the provider: notes where the sign-in started (the page's `next`, sign-in or sign-up). */
function startSignIn(provider, { next, register }) {
  sessionStorage.setItem(STARTED, JSON.stringify({ provider: provider.id, name: provider.name, next, register }));
  location.assign(oidcStartUrl(provider.id));
}

/**
 * The way back from the provider (`?oidc=` or `?oidcError=`), or null. The code leaves the URL at
 * once, so neither a reload nor Back uses it again; the URL keeps only the `next` the sign-in
 * started with (and says sign-up when it started there). `query`: the page's query from now on.
 */
export function takeReturn(query) {
  if (!query.has('oidc') && !query.has('oidcError')) return null;
  const started = readStarted();
  sessionStorage.removeItem(STARTED);
  const next = typeof started.next === 'string' ? started.next : '';
  const path = started.register ? '/app/register' : '/app/login';
  history.replaceState(history.state, '', next ? `${path}?next=${encodeURIComponent(next)}` : path);
  return {
    code: query.get('oidc') || '',
    error: query.get('oidcError') || (query.get('oidc') ? '' : 'other'),
    started,
    query: new URLSearchParams(location.search),
  };
}

/** The provider's name: as noted at the start, from the server's list, or "deinem Anbieter". */
async function providerName(id, started, providers) {
  if (started.name && (!id || started.provider === id)) return String(started.name);
  const found = id ? (await providers).find((p) => p.id === id) : null;
  return found?.name || id || t('oidc.providerFallback');
}

/** Why the provider's sign-in was refused (`?oidcError=`), in words. */
export function returnErrorText(reason, started) {
  const key = UNVERIFIED.has(reason) ? 'oidc.error.verify' : WORDED.has(reason) ? `oidc.error.${reason}` : 'oidc.error.other';
  return t(key, { provider: started.name ? String(started.name) : t('oidc.providerFallback') });
}

const providerButtons = (providers) => html`
          <div class="auth-providers" role="group" aria-label="${t('oidc.providersLabel')}">
            ${providers.map((p) => html`
            <button type="button" class="btn btn-secondary btn-block auth-provider" data-provider="${p.id}">
              ${icon('signin')}<span>${t('oidc.continueWith', { name: p.name })}</span>
            </button>`)}
          </div>`;

/**
 * One "Weiter mit …" button per provider in `host` (nothing when the server lists none). A click
 * leaves for the provider with the button busy; Back to this page (bfcache) makes it usable again.
 */
export async function offerProviders(host, { providers, next, register, signal }) {
  const list = await providers;
  if (!list.length || signal.aborted) return;
  await loadStrings('oidc');
  if (signal.aborted || !host.isConnected) return;
  render(host, providerButtons(list));
  host.hidden = false;
  host.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-provider]');
    const provider = button && list.find((p) => p.id === button.dataset.provider);
    if (!provider) return;
    host.querySelectorAll('button').forEach((b) => { b.disabled = true; });
    setBusy(button, true);
    startSignIn(provider, { next, register });
  }, { signal });
  addEventListener('pageshow', (event) => {
    if (event.persisted) host.querySelectorAll('button').forEach((b) => setBusy(b, false));
  }, { signal });
}

/** The auth card around each state of the way back. */
const card = (title, lead, body) => html`
    <section class="auth">
      <div class="auth-card">
        <img class="auth-logo" src="/assets/icons/logo.svg" alt="" width="48" height="48">
        <h1>${title}</h1>
        ${lead ? html`<p class="muted auth-lead">${lead}</p>` : ''}
        ${body}
      </div>
    </section>`;

const linkMarkup = ({ mail, name, keep }) => card(t('oidc.linkTitle'), t('oidc.linkLead', { mail, provider: name }), html`
        <div class="alert alert-error" role="alert" id="form-error" tabindex="-1" hidden></div>
        <form novalidate class="stack-form" id="link-form">
          <input type="text" name="username" autocomplete="username" value="${mail}" hidden>
          <div class="field">
            <label for="link-password">${t('auth.password')}</label>
            <input id="link-password" name="password" type="password" autocomplete="current-password" maxlength="72" required>
          </div>
          <button class="btn btn-primary btn-block" type="submit">${t('oidc.linkSubmit')}</button>
        </form>
        <button class="btn btn-secondary btn-block" type="button" id="oidc-again" hidden>
          ${icon('signin')}<span>${t('oidc.again', { provider: name })}</span>
        </button>
        <p class="auth-switch"><a href="/app/forgot">${t('reset.forgotLink')}</a></p>
        <p class="auth-switch"><a href="/app/login${keep}">${t('oidc.backToLogin')}</a></p>`);

/** Why linking failed, in words; `expired`: the sign-in must start again. */
function linkFailure(error, name) {
  if (error.status === 401 && hasCode(error, 'oidc_state_invalid')) return { text: t('oidc.linkExpired', { provider: name }), expired: true };
  if (error.status === 401 || hasCode(error, 'wrong_password')) return { text: t('oidc.wrongPassword'), wrong: true };
  if (error.status === 429) return { text: t('error.rateLimited', { count: error.retryAfter || 30 }) };
  if (error.status === 409) return { text: t('oidc.linkTaken', { provider: name }) };
  if (error.status === 0) return { text: t('error.network') };
  return { text: t('error.generic') };
}

/** "Mit bestehendem Konto verbinden": the account's password links the provider, then signs in. */
async function linkForm(root, { code, started, conflict, ctx }) {
  const { providers, land, signal, keep } = ctx;
  const id = conflict.provider || started.provider;
  const name = await providerName(id, started, providers);
  if (signal.aborted) return;
  render(root, linkMarkup({ mail: conflict.mail || '', name, keep }));
  const form = root.querySelector('#link-form');
  const formError = root.querySelector('#form-error');
  const again = root.querySelector('#oidc-again');
  const password = form.elements.password;
  again.addEventListener('click', () => {
    setBusy(again, true);
    startSignIn({ id, name }, { next: started.next || '', register: Boolean(started.register) });
  }, { signal });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.hidden = true;
    fieldError(password, password.value ? '' : t('auth.emptyPassword'));
    if (!password.value) { password.focus(); return; }
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      const auth = await oidcApi.link(code, password.value);
      if (!signal.aborted) await land(auth, false);
    } catch (error) {
      setBusy(button, false);
      if (signal.aborted) return;
      const failure = linkFailure(error, name);
      formError.textContent = failure.text;
      formError.hidden = false;
      if (failure.expired) {
        form.hidden = true;
        again.hidden = false;
        again.focus();
      } else if (failure.wrong) {
        password.select();
        password.focus();
      } else {
        formError.focus();
      }
    }
  }, { signal });
  password.focus();
}

/**
 * Exchanges the code of the way back for a session and lands (`land(auth, isNew)`); shows the link
 * form when an account with the address must confirm first; else `fail(text)` (the sign-in form
 * with the reason). `ctx`: {providers, land, fail, signal, keep}.
 */
export async function completeReturn(root, { code, started }, ctx) {
  render(root, card(t('oidc.completingTitle'), '', loadingView(t('oidc.completing'))));
  let auth;
  try {
    auth = await oidcApi.session(code);
  } catch (error) {
    if (ctx.signal.aborted) return;
    if (error.status === 409 && hasCode(error, 'oidc_link_required')) {
      await linkForm(root, { code, started, conflict: error.body || {}, ctx });
    } else if (error.status === 401) {
      ctx.fail(t('oidc.error.state_invalid'));
    } else {
      ctx.fail(error.status === 0 ? t('error.network') : error.status === 429
        ? t('error.rateLimited', { count: error.retryAfter || 30 }) : returnErrorText('other', started));
    }
    return;
  }
  if (!ctx.signal.aborted) await ctx.land(auth, Date.now() - Date.parse(auth.user?.createdAt) < NEW_ACCOUNT_MS);
}

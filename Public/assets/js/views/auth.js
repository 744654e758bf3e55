// Login and registration (/app/login, /app/register) with the original's validation texts, and
// "Ohne Konto ausprobieren": a guest account. Signing in goes to the home screen (or `next`);
// a new account (signed up or guest) starts with the onboarding. When the server has OpenID
// providers, one "Weiter mit …" button each, and the way back from them (auth/oidc.js).

import { html, render } from '../html.js';
import { currentLanguage, loadStrings, t } from '../i18n.js';
import { api } from '../api/client.js';
import { oidcApi } from '../api/oidc.js';
import { loadSettings, replaceSession, updateUser } from '../account.js';
import { HOME } from '../router.js';
import { fieldError, icon, setBusy } from '../ui.js';
import { completeReturn, offerProviders, returnErrorText, takeReturn } from './auth/oidc.js';

const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Only same-app paths are accepted as a return target (no open redirect). */
function safeNext(query) {
  const next = query.get('next') || '';
  return next.startsWith('/app/') && !next.startsWith('//') ? next : HOME;
}

/** The onboarding, which then goes on to `next` when the form had one. */
const welcomeUrl = (query) => (query.has('next') ? `/app/welcome?next=${encodeURIComponent(safeNext(query))}` : '/app/welcome');

const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The sign-in or sign-up page (`register`); `flashKey`: a note to show (e.g. the session ended). */
const authMarkup = ({ register, flashKey, keep }) => html`
    <section class="auth">
      <div class="auth-card">
        <img class="auth-logo" src="/assets/icons/logo.svg" alt="" width="48" height="48">
        <h1>${t(register ? 'auth.registerTitle' : 'auth.loginTitle')}</h1>
        <p class="muted">${t(register ? 'auth.registerLead' : 'auth.loginLead')}</p>
        ${flashKey ? html`<div class="alert alert-info" role="status">${t(flashKey)}</div>` : ''}
        <div class="alert alert-error" role="alert" id="form-error" tabindex="-1" hidden></div>
        <form novalidate class="stack-form" id="auth-form">
          ${register ? html`
            <div class="field">
              <label for="name">${t('auth.name')}</label>
              <input id="name" name="name" type="text" autocomplete="name" maxlength="100" required>
            </div>` : ''}
          <div class="field">
            <label for="mail">${t('auth.mail')}</label>
            <input id="mail" name="mail" type="email" autocomplete="${register ? 'email' : 'username'}" inputmode="email" maxlength="254" required>
          </div>
          <div class="field">
            <label for="password">${t('auth.password')}</label>
            <input id="password" name="password" type="password" maxlength="72" required
              autocomplete="${register ? 'new-password' : 'current-password'}"
              ${register ? html`aria-describedby="password-help" data-describedby="password-help"` : ''}>
            ${register ? html`<p class="help" id="password-help">${t('auth.passwordHint')}</p>` : ''}
          </div>
          <button class="btn btn-primary btn-block" type="submit">${t(register ? 'auth.register' : 'auth.login')}</button>
        </form>
        <div class="auth-or" aria-hidden="true"><span>${t('guest.or')}</span></div>
        <div id="auth-providers" hidden></div>
        <button class="btn btn-secondary btn-block" type="button" id="guest-start" aria-describedby="guest-help">
          ${icon('sparkles')}<span>${t('guest.start')}</span>
        </button>
        <p class="help auth-guest-help" id="guest-help">${t('guest.startHelp')}</p>
        ${register ? '' : html`<p class="auth-switch"><a href="/app/forgot">${t('reset.forgotLink')}</a></p>`}
        <p class="auth-switch">
          ${t(register ? 'auth.toLogin' : 'auth.toRegister')}
          <a href="${register ? '/app/login' : '/app/register'}${keep}">${t(register ? 'auth.toLoginLink' : 'auth.toRegisterLink')}</a>
        </p>
      </div>
    </section>`;

/** Marks every invalid field; returns them (the first takes the focus). */
function validate(fields, register) {
  const errors = [];
  const check = (input, message) => { fieldError(input, message); if (message) errors.push(input); };
  if (register) {
    const name = fields.name.value.trim();
    check(fields.name, !name ? t('auth.emptyName') : name.length < 2 ? t('auth.shortName') : '');
  }
  const mail = fields.mail.value.trim();
  check(fields.mail, !mail ? t('auth.emptyMail') : !MAIL.test(mail) ? t('auth.invalidMail') : '');
  const password = fields.password.value;
  check(fields.password, !password ? t('auth.emptyPassword')
    : register && password.length < 8 ? t('auth.shortPassword') : '');
  return errors;
}

/** Why signing in or up failed, in words. */
function failureText(error, register) {
  if (error.status === 429) return t('error.rateLimited', { count: error.retryAfter || 30 });
  if (error.status === 0) return t('error.network');
  if (register && error.code === 'user_already_exists') return t('auth.registerFailed');
  return t(register ? 'auth.registerInvalid' : 'auth.loginFailed');
}

/**
 * The page, or the way back from an OpenID provider (`?oidc=`: the session, or the link form;
 * `?oidcError=`: the form with the reason). Returns the clean-up (listeners, pending requests).
 */
export async function mount(root, ctx) {
  const controller = new AbortController();
  const { signal } = controller;
  const providers = oidcApi.providers({ signal }).then((body) => body?.providers || [], () => []);
  const back = takeReturn(ctx.query);
  if (!back) {
    mountForm(root, ctx, { providers, signal });
    return () => controller.abort();
  }
  await loadStrings('oidc').catch(() => {});
  const page = { ...ctx, query: back.query, props: { mode: back.started.register ? 'register' : 'login' } };
  const fail = (text) => mountForm(root, page, { providers, signal, error: text });
  if (back.code) {
    const keep = back.query.has('next') ? `?${back.query}` : '';
    completeReturn(root, back, { providers, signal, keep, fail, land: (auth, fresh) => land(auth, fresh, page) });
  } else {
    fail(returnErrorText(back.error, back.started));
  }
  return () => controller.abort();
}

/** A session from a provider: a learner whose account it just made (`fresh`, before the onboarding)
 * gets the browser's time zone, as a sign-up sends it, and the onboarding; everyone else lands as
 * after signing in. */
async function land(auth, fresh, { query, navigate }) {
  replaceSession(auth);
  const isNew = fresh && !(await loadSettings({ force: true }).catch(() => null))?.onboarding?.done;
  if (!isNew) return navigate(safeNext(query), { replace: true });
  try {
    if (auth.user?.timeZone !== timeZone()) updateUser(await api.updateMe({ timeZone: timeZone() }));
  } catch {
    // The zone can still be set in the settings.
  }
  return navigate(welcomeUrl(query), { replace: true });
}

/** The sign-in or sign-up form; `error`: a reason to show at once (a provider's refusal). */
function mountForm(root, { props, query, navigate }, { providers, signal, error = '' }) {
  const register = props.mode === 'register';
  const flashKey = sessionStorage.getItem('fc.flash');
  sessionStorage.removeItem('fc.flash');
  const keep = query.has('next') ? `?next=${encodeURIComponent(query.get('next'))}` : '';
  render(root, authMarkup({ register, flashKey, keep }));
  const form = root.querySelector('#auth-form');
  const formError = root.querySelector('#form-error');
  const fields = { name: form.elements.name, mail: form.elements.mail, password: form.elements.password };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.hidden = true;
    const errors = validate(fields, register);
    if (errors.length) { errors[0].focus(); return; }
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      const mail = fields.mail.value.trim();
      const auth = register
        ? await api.signup(fields.name.value.trim(), mail, fields.password.value, timeZone())
        : await api.login(mail, fields.password.value);
      replaceSession(auth);
      navigate(register ? welcomeUrl(query) : safeNext(query), { replace: true });
    } catch (failure) {
      setBusy(button, false);
      formError.textContent = failureText(failure, register);
      formError.hidden = false;
      formError.focus();
    }
  }, { signal });
  wireGuest(root, formError, () => navigate(welcomeUrl(query), { replace: true }), signal);
  const next = query.has('next') ? safeNext(query) : '';
  offerProviders(root.querySelector('#auth-providers'), { providers, next, register, signal }).catch(() => {});
  if (!error) {
    (register ? fields.name : fields.mail).focus();
    return;
  }
  // A provider's refusal: said at once, and its button is there to try again.
  formError.textContent = error;
  formError.hidden = false;
  formError.focus();
}

/** "Ohne Konto ausprobieren": a guest account, then `onStarted`. */
function wireGuest(root, formError, onStarted, signal) {
  const guestButton = root.querySelector('#guest-start');
  guestButton.addEventListener('click', async () => {
    formError.hidden = true;
    setBusy(guestButton, true);
    try {
      // The guest's generated name and the account's language follow the interface language.
      replaceSession(await api.guest(timeZone(), currentLanguage()));
      onStarted();
    } catch (error) {
      setBusy(guestButton, false);
      formError.textContent = error.status === 429
        ? t('error.rateLimited', { count: error.retryAfter || 30 })
        : error.status === 0 ? t('error.network') : t('guest.startFailed');
      formError.hidden = false;
    }
  }, { signal });
}

// "Passwort vergessen?": ask for a link by mail (/app/forgot) and set a new password with it
// (/app/reset?token=…). The server answers a request the same way whether or not the address has
// an account, and so does this page.

import { html, render } from '../html.js';
import { currentLanguage, t } from '../i18n.js';
import { api } from '../api/client.js';
import { replaceSession } from '../account.js';
import { HOME } from '../router.js';
import { fieldError, loadingView, setBusy, toast } from '../ui.js';

const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The card every state of both pages sits in: logo, heading, lead, then `body`. */
function card(title, lead, body) {
  return html`
    <section class="auth">
      <div class="auth-card">
        <img class="auth-logo" src="/assets/icons/logo.svg" alt="" width="48" height="48">
        <h1>${title}</h1>
        ${lead ? html`<p class="muted">${lead}</p>` : ''}
        ${body}
        <p class="auth-switch"><a href="/app/login">${t('reset.backToLogin')}</a></p>
      </div>
    </section>`;
}

/** The sentence for a failed request. */
function failure(error) {
  if (error.status === 0) return t('error.network');
  if (error.status === 429) return t('error.rateLimited', { count: error.retryAfter || 30 });
  if (error.code === 'password_reset_unavailable') return t('reset.unavailable');
  if (error.code === 'invalid_reset_token') return t('reset.invalidLink');
  if (error.code === 'database_busy') return t('error.busy');
  return t('error.generic');
}

function showError(el, text) {
  el.textContent = text;
  el.hidden = false;
}

async function mountForgot(root) {
  render(root, card(t('reset.forgotTitle'), '', loadingView(t('reset.checking'))));
  const shown = root.firstElementChild;
  let available = true;
  try {
    available = (await api.passwordResetStatus()).available;
  } catch {
    // Unknown: offer the form; a request then says what is wrong.
  }
  if (!shown.isConnected) return; // the user went elsewhere meanwhile
  if (!available) {
    render(root, card(t('reset.forgotTitle'), '', html`
      <div class="alert alert-info" role="status" id="reset-unavailable">${t('reset.unavailable')}</div>`));
    return;
  }
  render(root, card(t('reset.forgotTitle'), t('reset.forgotLead'), html`
    <div class="alert alert-error" role="alert" id="form-error" tabindex="-1" hidden></div>
    <form novalidate class="stack-form" id="forgot-form">
      <div class="field">
        <label for="mail">${t('auth.mail')}</label>
        <input id="mail" name="mail" type="email" autocomplete="email" inputmode="email" maxlength="254" required>
      </div>
      <button class="btn btn-primary btn-block" type="submit">${t('reset.send')}</button>
    </form>`));
  const form = root.querySelector('#forgot-form');
  const formError = root.querySelector('#form-error');
  const mailInput = form.elements.mail;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.hidden = true;
    const mail = mailInput.value.trim();
    const problem = !mail ? t('auth.emptyMail') : !MAIL.test(mail) ? t('auth.invalidMail') : '';
    fieldError(mailInput, problem);
    if (problem) { mailInput.focus(); return; }
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      await api.requestPasswordReset(mail, currentLanguage());
    } catch (error) {
      setBusy(button, false);
      showError(formError, failure(error));
      formError.focus();
      return;
    }
    render(root, card(t('reset.forgotTitle'), '', html`
      <div class="alert alert-info" role="status" id="reset-sent" tabindex="-1">
        <p>${t('reset.sent')}</p>
        <p>${t('reset.sentHint')}</p>
      </div>`));
    root.querySelector('#reset-sent').focus();
  });
  mailInput.focus();
}

function mountReset(root, query, navigate) {
  const token = query.get('token') || '';
  if (!TOKEN.test(token)) {
    render(root, card(t('reset.title'), '', html`
      <div class="alert alert-error" role="alert">${t('reset.missingToken')}</div>
      <a class="btn btn-secondary btn-block" href="/app/forgot">${t('reset.requestNew')}</a>`));
    return;
  }
  render(root, card(t('reset.title'), t('reset.lead'), html`
    <div class="alert alert-error" role="alert" id="form-error" tabindex="-1" hidden></div>
    <p id="request-new" hidden><a href="/app/forgot">${t('reset.requestNew')}</a></p>
    <form novalidate class="stack-form" id="reset-form">
      <div class="field">
        <label for="password">${t('reset.newPassword')}</label>
        <input id="password" name="password" type="password" autocomplete="new-password" maxlength="72" required
          aria-describedby="password-help" data-describedby="password-help">
        <p class="help" id="password-help">${t('auth.passwordHint')}</p>
      </div>
      <div class="field">
        <label for="repeat">${t('reset.repeatPassword')}</label>
        <input id="repeat" name="repeat" type="password" autocomplete="new-password" maxlength="72" required>
      </div>
      <button class="btn btn-primary btn-block" type="submit">${t('reset.save')}</button>
    </form>`));
  const form = root.querySelector('#reset-form');
  const formError = root.querySelector('#form-error');
  const { password, repeat } = form.elements;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    formError.hidden = true;
    const first = !password.value ? t('auth.emptyPassword')
      : password.value.length < 8 ? t('auth.shortPassword') : '';
    const second = !first && repeat.value !== password.value ? t('reset.mismatch') : '';
    fieldError(password, first);
    fieldError(repeat, second);
    if (first || second) { (first ? password : repeat).focus(); return; }
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      const auth = await api.confirmPasswordReset(token, password.value);
      replaceSession(auth);
      await navigate(HOME, { replace: true });
      toast(t('reset.done'));
    } catch (error) {
      setBusy(button, false);
      if (error.code === 'validation_failed') {
        fieldError(password, error.message || t('auth.shortPassword'));
        password.focus();
        return;
      }
      showError(formError, failure(error));
      root.querySelector('#request-new').hidden = error.code !== 'invalid_reset_token';
      formError.focus();
    }
  });
  password.focus();
}

export async function mount(root, { props, query, navigate }) {
  if (props.mode === 'reset') mountReset(root, query, navigate);
  else await mountForgot(root);
}

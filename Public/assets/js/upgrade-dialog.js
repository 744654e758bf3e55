// "Konto sichern": a dialog with name, mail and password that turns the signed-in guest into a
// full account (`POST /auth/upgrade`); every stack and review stays. Loaded when a guest asks.

import { html } from './html.js';
import { loadStrings, t } from './i18n.js';
import { api, hasCode, session } from './api/client.js';
import { replaceSession, updateUser } from './account.js';
import { errorText, fieldError, icon, loadStylesheet, setBusy, toast } from './ui.js';
import { openModal } from '../components/modal-dialog/modal-dialog.js';

const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

const formMarkup = () => html`
      <form class="dialog-body dialog-body-form" id="upgrade-form" novalidate>
        <div class="dialog-icon" aria-hidden="true">${icon('shield')}</div>
        <h2 id="upgrade-title" class="dialog-title">${t('guest.upgradeTitle')}</h2>
        <p class="muted" id="upgrade-lead">${t('guest.upgradeLead')}</p>
        <div class="alert alert-error" role="alert" id="upgrade-error" hidden></div>
        <div class="field">
          <label for="upgrade-name">${t('guest.upgradeName')}</label>
          <input id="upgrade-name" name="name" type="text" autocomplete="name" maxlength="100"
            placeholder="${session.user()?.name ?? ''}">
        </div>
        <div class="field">
          <label for="upgrade-mail">${t('auth.mail')}</label>
          <input id="upgrade-mail" name="mail" type="email" autocomplete="email" inputmode="email" maxlength="254" required>
        </div>
        <div class="field">
          <label for="upgrade-password">${t('auth.password')}</label>
          <input id="upgrade-password" name="password" type="password" autocomplete="new-password" maxlength="72" required
            aria-describedby="upgrade-password-help" data-describedby="upgrade-password-help">
          <p class="help" id="upgrade-password-help">${t('auth.passwordHint')}</p>
        </div>
        <div class="dialog-actions">
          <button type="button" class="btn btn-secondary" data-cancel>${t('cancel')}</button>
          <button type="submit" class="btn btn-primary">${t('guest.upgradeSubmit')}</button>
        </div>
      </form>`;

/** Marks the invalid fields; returns the first (null when all are fine). */
function validate(form) {
  const { name, mail, password } = form.elements;
  const mailValue = mail.value.trim();
  const nameValue = name.value.trim();
  fieldError(name, nameValue && nameValue.length < 2 ? t('auth.shortName') : '');
  fieldError(mail, !mailValue ? t('auth.emptyMail') : !MAIL.test(mailValue) ? t('auth.invalidMail') : '');
  fieldError(password, !password.value ? t('auth.emptyPassword')
    : password.value.length < 8 ? t('auth.shortPassword') : '');
  return form.querySelector('[aria-invalid=true]');
}

/** Opens the dialog; resolves true when the account was secured. */
export async function openUpgradeDialog() {
  await Promise.all([loadStrings('more').catch(() => {}), loadStylesheet('/assets/css/more.css')]);
  const modal = openModal(formMarkup(), { labelledBy: 'upgrade-title', className: 'dialog-form' });
  const form = modal.dialog.querySelector('form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    modal.dialog.querySelector('#upgrade-error').hidden = true;
    const invalid = validate(form);
    if (invalid) { invalid.focus(); return; }
    upgrade(modal, form);
  });
  form.elements.name.focus();
  return (await modal.done) === true;
}

/** Sends the upgrade; closes the dialog (true) once the account is secured. */
async function upgrade(modal, form) {
  const { name, mail, password } = form.elements;
  const button = form.querySelector('button[type=submit]');
  setBusy(button, true);
  try {
    const auth = await api.upgrade(name.value.trim() || undefined, mail.value.trim(), password.value);
    replaceSession(auth);
    modal.close(true);
    toast(t('guest.upgraded'));
  } catch (error) {
    setBusy(button, false);
    if (error.status === 401) { modal.close(false); return; }
    if (hasCode(error, 'user_already_exists')) {
      fieldError(mail, t('guest.mailTaken'));
      mail.focus();
      return;
    }
    if (hasCode(error, 'not_a_guest')) {
      // Secured already (in another tab): take the account as it is now.
      try { updateUser(await api.me()); } catch { /* the next page load will */ }
      modal.close(true);
      toast(t('guest.alreadySecured'));
      return;
    }
    const formError = form.querySelector('#upgrade-error');
    formError.textContent = error.status === 400 ? t('guest.upgradeInvalid') : errorText(error);
    formError.hidden = false;
  }
}

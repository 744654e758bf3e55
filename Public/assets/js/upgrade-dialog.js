// "Konto sichern": a dialog with name, mail and password that turns the signed-in guest into a
// full account (`POST /auth/upgrade`); every stack and review stays. Loaded when a guest asks.

import { html, render } from './html.js';
import { loadStrings, t } from './i18n.js';
import { api, hasCode, session } from './api/client.js';
import { replaceSession, updateUser } from './account.js';
import { errorText, fieldError, icon, loadStylesheet, setBusy, toast } from './ui.js';

const MAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Opens the dialog; resolves true when the account was secured. */
export async function openUpgradeDialog() {
  await Promise.all([loadStrings('more').catch(() => {}), loadStylesheet('/assets/css/more.css')]);
  return new Promise((resolve) => {
    const dialog = document.createElement('dialog');
    dialog.className = 'dialog dialog-form';
    dialog.setAttribute('aria-labelledby', 'upgrade-title');
    render(dialog, formTemplate());
    document.body.append(dialog);
    const upgrade = new UpgradeForm(dialog);
    dialog.addEventListener('close', () => { dialog.remove(); resolve(upgrade.upgraded); });
    dialog.showModal();
    upgrade.fields.name.focus();
  });
}

const formTemplate = () => html`
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

/** The dialog's form: `upgraded` once the guest's account is secured. */
class UpgradeForm {
  constructor(dialog) {
    this.dialog = dialog;
    this.upgraded = false;
    this.form = dialog.querySelector('form');
    this.fields = this.form.elements;
    this.formError = dialog.querySelector('#upgrade-error');
    dialog.querySelector('[data-cancel]').addEventListener('click', () => dialog.close());
    this.form.addEventListener('submit', (event) => { event.preventDefault(); this.submit(); });
  }

  /** Marks the fields in error; false when one is. */
  check() {
    const { name, mail, password } = this.fields;
    const mailValue = mail.value.trim();
    const nameValue = name.value.trim();
    fieldError(name, nameValue && nameValue.length < 2 ? t('auth.shortName') : '');
    fieldError(mail, !mailValue ? t('auth.emptyMail') : !MAIL.test(mailValue) ? t('auth.invalidMail') : '');
    fieldError(password, !password.value ? t('auth.emptyPassword')
      : password.value.length < 8 ? t('auth.shortPassword') : '');
    const invalid = this.form.querySelector('[aria-invalid=true]');
    invalid?.focus();
    return !invalid;
  }

  async submit() {
    const { name, mail, password } = this.fields;
    this.formError.hidden = true;
    if (!this.check()) return;
    const button = this.form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      const auth = await api.upgrade(name.value.trim() || undefined, mail.value.trim(), password.value);
      this.upgraded = true;
      replaceSession(auth);
      this.dialog.close();
      toast(t('guest.upgraded'));
    } catch (error) {
      setBusy(button, false);
      await this.failed(error);
    }
  }

  async failed(error) {
    const { mail } = this.fields;
    if (error.status === 401) { this.dialog.close(); return; }
    if (hasCode(error, 'user_already_exists')) {
      fieldError(mail, t('guest.mailTaken'));
      mail.focus();
      return;
    }
    if (hasCode(error, 'not_a_guest')) {
      // Secured already (in another tab): take the account as it is now.
      try { updateUser(await api.me()); } catch { /* the next page load will */ }
      this.upgraded = true;
      this.dialog.close();
      toast(t('guest.alreadySecured'));
      return;
    }
    this.formError.textContent = error.status === 400 ? t('guest.upgradeInvalid') : errorText(error);
    this.formError.hidden = false;
  }
}

// The settings' "Konto löschen" dialog: asks before deleting the account (with the password,
// except for a guest) and deletes it.

import { html } from '../../html.js';
import { openModal } from '../../../components/modal-dialog/modal-dialog.js';
import { t } from '../../i18n.js';
import { api, hasCode } from '../../api/client.js';
import { errorText, fieldError, icon, setBusy, toast } from '../../ui.js';

const dialogMarkup = (guest) => html`
      <form class="dialog-body dialog-body-form" novalidate>
        <div class="dialog-icon dialog-icon-warning" aria-hidden="true">${icon('alert')}</div>
        <h2 id="delete-dialog-title" class="dialog-title">${t('settings.deleteTitle')}</h2>
        <p class="muted">${t(guest ? 'settings.deleteGuestConfirm' : 'settings.deleteConfirmText')}</p>
        ${guest ? '' : html`
          <div class="field">
            <label for="delete-password">${t('auth.password')}</label>
            <input id="delete-password" name="password" type="password" autocomplete="current-password" maxlength="72">
          </div>`}
        <div class="dialog-actions">
          <button type="button" class="btn btn-secondary" data-cancel>${t('cancel')}</button>
          <button type="submit" class="btn btn-danger">${t('settings.deleteButton')}</button>
        </div>
      </form>`;

/** Asks before deleting the account (with the password, except for a guest); resolves true once deleted. */
export async function deleteDialog(guest) {
  const modal = openModal(dialogMarkup(guest), { labelledBy: 'delete-dialog-title', className: 'dialog-form' });
  const form = modal.dialog.querySelector('form');
  const password = form.elements.password;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (password) {
      fieldError(password, password.value ? '' : t('auth.emptyPassword'));
      if (!password.value) { password.focus(); return; }
    }
    if (await deleteAccount(form, guest, password)) modal.close(true);
  });
  (password || form.querySelector('[data-cancel]')).focus();
  return (await modal.done) === true;
}

/** Sends the deletion; true when the account is gone (a 401 closes the dialog: signed out). */
async function deleteAccount(form, guest, password) {
  const button = form.querySelector('button[type=submit]');
  setBusy(button, true);
  try {
    await api.deleteAccount(guest ? '' : password.value);
    return true;
  } catch (error) {
    setBusy(button, false);
    if (error.status === 401) { form.closest('modal-dialog').close(false); return false; }
    if (password && hasCode(error, 'wrong_password')) { fieldError(password, t('settings.wrongPassword')); password.focus(); return false; }
    toast(errorText(error), 'error');
    return false;
  }
}

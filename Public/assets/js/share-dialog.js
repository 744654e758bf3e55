// The stack's share dialog: make a read-only link, copy it, revoke it. Loaded when the button is
// pressed (with its strings), so the stack page's first load stays small.

import { html, render } from './html.js';
import { loadStrings, t } from './i18n.js';
import { api } from './api/client.js';
import { defineIcons, errorText, icon, loadStylesheet, setBusy } from './ui.js';

defineIcons({ copy: 'M9 9h10v12H9zM5 15H4V3h11v1' });

/** Opens the dialog for `stack`; resolves when it is closed. */
export async function openShareDialog(stack) {
  await Promise.all([loadStrings('more'), loadStylesheet('/assets/css/rich-text.css')]);
  const dialog = document.createElement('dialog');
  dialog.className = 'dialog share-dialog';
  dialog.setAttribute('aria-labelledby', 'share-title');
  document.body.append(dialog);
  let link = null;
  let busy = false;

  function draw(message = '') {
    const url = link ? new URL(link.path, location.origin).href : '';
    render(dialog, html`
      <div class="dialog-body">
        <h2 id="share-title" class="dialog-title">${t('share.title', { name: stack.name })}</h2>
        <p class="muted" id="share-text">${t(link ? 'share.activeText' : 'share.text')}</p>
        ${link ? html`
          <label for="share-url">${t('share.linkLabel')}</label>
          <div class="share-row">
            <input id="share-url" type="url" readonly value="${url}">
            <button type="button" class="btn btn-secondary" data-copy>${icon('copy')}<span>${t('share.copy')}</span></button>
          </div>` : ''}
        <p class="help" role="status" id="share-status">${message}</p>
        <div class="dialog-actions">
          ${link
            ? html`<button type="button" class="btn btn-danger-ghost" data-revoke>${t('share.revoke')}</button>`
            : html`<button type="button" class="btn btn-primary" data-create>${t('share.create')}</button>`}
          <button type="button" class="btn btn-secondary" data-close>${t('close')}</button>
        </div>
      </div>`);
    dialog.querySelector('[data-close]').addEventListener('click', () => dialog.close());
    dialog.querySelector('[data-create]')?.addEventListener('click', (event) => act(event.currentTarget, async () => {
      link = await api.share(stack.id);
      draw(t('share.created'));
      dialog.querySelector('#share-url').select();
    }));
    dialog.querySelector('[data-revoke]')?.addEventListener('click', (event) => act(event.currentTarget, async () => {
      await api.stopSharing(stack.id);
      link = null;
      draw(t('share.revoked'));
      dialog.querySelector('[data-create]').focus();
    }));
    dialog.querySelector('[data-copy]')?.addEventListener('click', async () => {
      const input = dialog.querySelector('#share-url');
      input.select();
      try {
        await navigator.clipboard.writeText(input.value);
        status(t('share.copied'));
      } catch {
        status(t('share.copyManually'));
      }
    });
  }

  const status = (text) => { dialog.querySelector('#share-status').textContent = text; };

  async function act(button, work) {
    if (busy) return;
    busy = true;
    setBusy(button, true);
    try {
      await work();
    } catch (error) {
      if (error.status === 401) { dialog.close(); return; }
      setBusy(button, false);
      status(errorText(error));
    } finally {
      busy = false;
    }
  }

  draw(t('loading'));
  dialog.showModal();
  try {
    link = await api.shareLink(stack.id);
    draw();
  } catch (error) {
    if (error.status === 401) { dialog.close(); return; }
    draw(error.code === 'share_not_found' ? '' : errorText(error));
  }
  (dialog.querySelector('[data-create]') ?? dialog.querySelector('[data-copy]'))?.focus();
  await new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
  dialog.remove();
}

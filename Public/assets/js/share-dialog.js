// The stack's share dialog: make a read-only link, copy it, revoke it; publish the stack in the
// catalogue (Explore) with a category and a language, or take it back. Loaded when the button is
// pressed (with its strings), so the stack page's first load stays small.

import { html, render } from './html.js';
import { currentLanguage, loadStrings, t } from './i18n.js';
import { api } from './api/client.js';
import { defineIcons, errorText, icon, loadStylesheet, setBusy } from './ui.js';
import { CATEGORIES, LANGUAGES, catalogue } from './views/explore.js';

defineIcons({ copy: 'M9 9h10v12H9zM5 15H4V3h11v1' });

/** Opens the dialog for `stack`; resolves when it is closed. */
export async function openShareDialog(stack) {
  await Promise.all([
    loadStrings('more'), loadStrings('explore'), loadStylesheet('/assets/css/rich-text.css'),
    loadStylesheet('/assets/css/explore.css'),
  ]);
  const dialog = document.createElement('dialog');
  dialog.className = 'dialog share-dialog';
  dialog.setAttribute('aria-labelledby', 'share-title');
  document.body.append(dialog);
  let link = null;
  let publication = null;
  let busy = false;
  let publishMessage = '';

  function draw(message = '') {
    const category = publication?.category ?? 'other';
    const language = publication?.language ?? (LANGUAGES.includes(currentLanguage()) ? currentLanguage() : 'other');
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
        </div>
        <section class="publish-section" aria-labelledby="publish-title">
          <h3 id="publish-title">${t('publish.title')}</h3>
          <p class="muted">${t(publication ? 'publish.activeText' : 'publish.text')}</p>
          <div class="publish-row">
            <label>${t('publish.category')}
              <select id="publish-category">
                ${CATEGORIES.map((c) => html`<option value="${c}" ${c === category ? 'selected' : ''}>${t(`category.${c}`)}</option>`)}
              </select>
            </label>
            <label>${t('publish.language')}
              <select id="publish-language">
                ${LANGUAGES.map((c) => html`<option value="${c}" ${c === language ? 'selected' : ''}>${t(`language.${c}`)}</option>`)}
              </select>
            </label>
          </div>
          <p class="help" role="status" id="publish-status">${publishMessage}</p>
          <div class="dialog-actions">
            ${publication ? html`
              <a class="btn btn-ghost" href="${publication.path}" data-view>${t('publish.view')}</a>
              <button type="button" class="btn btn-danger-ghost" data-unpublish>${t('publish.unpublish')}</button>
              <button type="button" class="btn btn-secondary" data-publish>${t('publish.update')}</button>`
              : html`<button type="button" class="btn btn-primary" data-publish>${t('publish.publish')}</button>`}
          </div>
        </section>
        <div class="dialog-actions">
          <button type="button" class="btn btn-secondary" data-close>${t('close')}</button>
        </div>
      </div>`);
    dialog.querySelector('[data-view]')?.addEventListener('click', () => dialog.close());
    dialog.querySelector('[data-publish]').addEventListener('click', (event) => act(event.currentTarget, async () => {
      const wasPublished = Boolean(publication);
      publication = await catalogue.publish(
        stack.id, dialog.querySelector('#publish-category').value, dialog.querySelector('#publish-language').value);
      publishMessage = t(wasPublished ? 'publish.updated' : 'publish.published');
      draw();
      dialog.querySelector('[data-publish]').focus();
    }, publishStatus));
    dialog.querySelector('[data-unpublish]')?.addEventListener('click', (event) => act(event.currentTarget, async () => {
      await catalogue.unpublish(stack.id);
      publication = null;
      publishMessage = t('publish.unpublished');
      draw();
      dialog.querySelector('[data-publish]').focus();
    }, publishStatus));
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
  const publishStatus = (text) => { dialog.querySelector('#publish-status').textContent = text; };

  async function act(button, work, say = status) {
    if (busy) return;
    busy = true;
    setBusy(button, true);
    try {
      await work();
    } catch (error) {
      if (error.status === 401) { dialog.close(); return; }
      setBusy(button, false);
      say(error.code === 'stack_empty' ? t('publish.empty') : errorText(error));
    } finally {
      busy = false;
    }
  }

  draw(t('loading'));
  dialog.showModal();
  const [shared, published] = await Promise.allSettled([api.shareLink(stack.id), catalogue.publication(stack.id)]);
  if ([shared, published].some((result) => result.reason?.status === 401)) { dialog.close(); return; }
  link = shared.value ?? null;
  publication = published.value ?? null;
  if (published.reason && published.reason.code !== 'not_published') publishMessage = errorText(published.reason);
  draw(shared.reason && shared.reason.code !== 'share_not_found' ? errorText(shared.reason) : '');
  (dialog.querySelector('[data-create]') ?? dialog.querySelector('[data-copy]'))?.focus();
  await new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
  dialog.remove();
}

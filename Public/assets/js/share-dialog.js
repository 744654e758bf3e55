// The stack's share dialog: make a read-only link, copy it, revoke it; publish the stack in the
// catalogue (Explore) with a category and a language, or take it back. Loaded when the button is
// pressed (with its strings), so the stack page's first load stays small. A <modal-dialog>; the
// ShareDialog object owns its state (the link, the publication, whether a request runs).

import { html } from './html.js';
import { currentLanguage, loadStrings, t } from './i18n.js';
import { api } from './api/client.js';
import { defineIcons, errorText, icon, loadStylesheet, setBusy } from './ui.js';
import { CATEGORIES, LANGUAGES, catalogue } from './views/explore.js';
import { openModal } from '../components/modal-dialog/modal-dialog.js';

defineIcons({ copy: 'M9 9h10v12H9zM5 15H4V3h11v1' });

/** The dialog's content: `state` {stack, link, publication, publishMessage}, `message` under the link. */
function shareMarkup({ stack, link, publication, publishMessage }, message) {
  const category = publication?.category ?? 'other';
  const language = publication?.language ?? (LANGUAGES.includes(currentLanguage()) ? currentLanguage() : 'other');
  const url = link ? new URL(link.path, location.origin).href : '';
  return html`
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
          <button type="button" class="btn btn-secondary" data-cancel>${t('close')}</button>
        </div>
      </div>`;
}

class ShareDialog {
  link = null;
  publication = null;
  busy = false;
  publishMessage = '';

  constructor(stack) {
    this.stack = stack;
    this.modal = openModal(shareMarkup(this, t('loading')), { labelledBy: 'share-title', className: 'share-dialog' });
    this.dialog = this.modal.dialog;
    this.dialog.addEventListener('click', (event) => this.#onClick(event));
  }

  $(selector) { return this.dialog.querySelector(selector); }

  draw(message = '') {
    this.modal.setContent(shareMarkup(this, message), { labelledBy: 'share-title', className: 'share-dialog' });
  }

  status(text) { this.$('#share-status').textContent = text; }

  publishStatus(text) { this.$('#publish-status').textContent = text; }

  /** Loads the link and the publication; resolves once the dialog is closed. */
  async run() {
    const { stack } = this;
    const [shared, published] = await Promise.allSettled([api.shareLink(stack.id), catalogue.publication(stack.id)]);
    if ([shared, published].some((result) => result.reason?.status === 401)) { this.modal.close(); return; }
    this.link = shared.value ?? null;
    this.publication = published.value ?? null;
    if (published.reason && published.reason.code !== 'not_published') this.publishMessage = errorText(published.reason);
    this.draw(shared.reason && shared.reason.code !== 'share_not_found' ? errorText(shared.reason) : '');
    (this.$('[data-create]') ?? this.$('[data-copy]'))?.focus();
    await this.modal.done;
  }

  #onClick(event) {
    const button = event.target.closest('[data-view], [data-publish], [data-unpublish], [data-create], [data-revoke], [data-copy]');
    if (!button) return;
    if (button.matches('[data-view]')) this.modal.close();
    else if (button.matches('[data-publish]')) this.#act(button, () => this.#publish(), (text) => this.publishStatus(text));
    else if (button.matches('[data-unpublish]')) this.#act(button, () => this.#unpublish(), (text) => this.publishStatus(text));
    else if (button.matches('[data-create]')) this.#act(button, () => this.#create());
    else if (button.matches('[data-revoke]')) this.#act(button, () => this.#revoke());
    else this.#copy();
  }

  async #act(button, work, say = (text) => this.status(text)) {
    if (this.busy) return;
    this.busy = true;
    setBusy(button, true);
    try {
      await work();
    } catch (error) {
      if (error.status === 401) { this.modal.close(); return; }
      setBusy(button, false);
      say(error.code === 'stack_empty' ? t('publish.empty') : errorText(error));
    } finally {
      this.busy = false;
    }
  }

  async #publish() {
    const wasPublished = Boolean(this.publication);
    this.publication = await catalogue.publish(this.stack.id, this.$('#publish-category').value, this.$('#publish-language').value);
    this.publishMessage = t(wasPublished ? 'publish.updated' : 'publish.published');
    this.draw();
    this.$('[data-publish]').focus();
  }

  async #unpublish() {
    await catalogue.unpublish(this.stack.id);
    this.publication = null;
    this.publishMessage = t('publish.unpublished');
    this.draw();
    this.$('[data-publish]').focus();
  }

  async #create() {
    this.link = await api.share(this.stack.id);
    this.draw(t('share.created'));
    this.$('#share-url').select();
  }

  async #revoke() {
    await api.stopSharing(this.stack.id);
    this.link = null;
    this.draw(t('share.revoked'));
    this.$('[data-create]').focus();
  }

  async #copy() {
    const input = this.$('#share-url');
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      this.status(t('share.copied'));
    } catch {
      this.status(t('share.copyManually'));
    }
  }
}

/** Opens the dialog for `stack`; resolves when it is closed. */
export async function openShareDialog(stack) {
  await Promise.all([
    loadStrings('more'), loadStrings('explore'), loadStylesheet('/assets/css/rich-text.css'),
    loadStylesheet('/assets/css/explore.css'),
  ]);
  await new ShareDialog(stack).run();
}

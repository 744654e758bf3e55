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
  const dialog = new ShareDialog(stack);
  await dialog.open();
}

/** The read-only link: made, copied, revoked. */
const linkSection = (stack, link, message) => html`
  <h2 id="share-title" class="dialog-title">${t('share.title', { name: stack.name })}</h2>
  <p class="muted" id="share-text">${t(link ? 'share.activeText' : 'share.text')}</p>
  ${link ? html`
    <label for="share-url">${t('share.linkLabel')}</label>
    <div class="share-row">
      <input id="share-url" type="url" readonly value="${new URL(link.path, location.origin).href}">
      <button type="button" class="btn btn-secondary" data-copy>${icon('copy')}<span>${t('share.copy')}</span></button>
    </div>` : ''}
  <p class="help" role="status" id="share-status">${message}</p>
  <div class="dialog-actions">
    ${link
      ? html`<button type="button" class="btn btn-danger-ghost" data-revoke>${t('share.revoke')}</button>`
      : html`<button type="button" class="btn btn-primary" data-create>${t('share.create')}</button>`}
  </div>`;

/** The stack in the catalogue: published with a category and a language, or taken back. */
function publishSection(publication, message) {
  const category = publication?.category ?? 'other';
  const language = publication?.language ?? (LANGUAGES.includes(currentLanguage()) ? currentLanguage() : 'other');
  return html`
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
      <p class="help" role="status" id="publish-status">${message}</p>
      <div class="dialog-actions">
        ${publication ? html`
          <a class="btn btn-ghost" href="${publication.path}" data-view>${t('publish.view')}</a>
          <button type="button" class="btn btn-danger-ghost" data-unpublish>${t('publish.unpublish')}</button>
          <button type="button" class="btn btn-secondary" data-publish>${t('publish.update')}</button>`
          : html`<button type="button" class="btn btn-primary" data-publish>${t('publish.publish')}</button>`}
      </div>
    </section>`;
}

/** One opening of the dialog: owns the link and the publication as the server last said. */
class ShareDialog {
  constructor(stack) {
    this.stack = stack;
    this.link = null;
    this.publication = null;
    this.busy = false;
    this.publishMessage = '';
    this.dialog = document.createElement('dialog');
    this.dialog.className = 'dialog share-dialog';
    this.dialog.setAttribute('aria-labelledby', 'share-title');
    this.dialog.addEventListener('click', (event) => this.click(event));
    document.body.append(this.dialog);
  }

  $(sel) { return this.dialog.querySelector(sel); }

  draw(message = '') {
    render(this.dialog, html`
      <div class="dialog-body">
        ${linkSection(this.stack, this.link, message)}
        ${publishSection(this.publication, this.publishMessage)}
        <div class="dialog-actions">
          <button type="button" class="btn btn-secondary" data-close>${t('close')}</button>
        </div>
      </div>`);
  }

  status(text) { this.$('#share-status').textContent = text; }

  publishStatus(text) { this.$('#publish-status').textContent = text; }

  click(event) {
    const target = event.target.closest('[data-view], [data-close], [data-publish], [data-unpublish], [data-create], [data-revoke], [data-copy]');
    if (!target) return;
    const { dataset } = target;
    if ('view' in dataset || 'close' in dataset) this.dialog.close();
    else if ('publish' in dataset) this.act(target, () => this.publish(), (text) => this.publishStatus(text));
    else if ('unpublish' in dataset) this.act(target, () => this.unpublish(), (text) => this.publishStatus(text));
    else if ('create' in dataset) this.act(target, () => this.create());
    else if ('revoke' in dataset) this.act(target, () => this.revoke());
    else this.copy();
  }

  async act(button, work, say = (text) => this.status(text)) {
    if (this.busy) return;
    this.busy = true;
    setBusy(button, true);
    try {
      await work();
    } catch (error) {
      if (error.status === 401) { this.dialog.close(); return; }
      setBusy(button, false);
      say(error.code === 'stack_empty' ? t('publish.empty') : errorText(error));
    } finally {
      this.busy = false;
    }
  }

  async publish() {
    const wasPublished = Boolean(this.publication);
    this.publication = await catalogue.publish(this.stack.id, this.$('#publish-category').value, this.$('#publish-language').value);
    this.publishMessage = t(wasPublished ? 'publish.updated' : 'publish.published');
    this.draw();
    this.$('[data-publish]').focus();
  }

  async unpublish() {
    await catalogue.unpublish(this.stack.id);
    this.publication = null;
    this.publishMessage = t('publish.unpublished');
    this.draw();
    this.$('[data-publish]').focus();
  }

  async create() {
    this.link = await api.share(this.stack.id);
    this.draw(t('share.created'));
    this.$('#share-url').select();
  }

  async revoke() {
    await api.stopSharing(this.stack.id);
    this.link = null;
    this.draw(t('share.revoked'));
    this.$('[data-create]').focus();
  }

  async copy() {
    const input = this.$('#share-url');
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      this.status(t('share.copied'));
    } catch {
      this.status(t('share.copyManually'));
    }
  }

  /** Shows the dialog, asks the server for the link and the publication; resolves once closed. */
  async open() {
    const { dialog, stack } = this;
    this.draw(t('loading'));
    dialog.showModal();
    const [shared, published] = await Promise.allSettled([api.shareLink(stack.id), catalogue.publication(stack.id)]);
    if ([shared, published].some((result) => result.reason?.status === 401)) { dialog.close(); return; }
    this.link = shared.value ?? null;
    this.publication = published.value ?? null;
    if (published.reason && published.reason.code !== 'not_published') this.publishMessage = errorText(published.reason);
    this.draw(shared.reason && shared.reason.code !== 'share_not_found' ? errorText(shared.reason) : '');
    (this.$('[data-create]') ?? this.$('[data-copy]'))?.focus();
    await new Promise((resolve) => dialog.addEventListener('close', resolve, { once: true }));
    dialog.remove();
  }
}

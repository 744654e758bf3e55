// The settings' "KI-Assistenten und Zugangstokens": personal access tokens with which the learner's
// own AI assistant reaches their cards over MCP (`{origin}/mcp`, `Authorization: Bearer <secret>`).
// Lists the tokens (`GET /me/tokens`), creates one (`POST /me/tokens`; its secret is shown this
// once, with the MCP address and a configuration for Claude Desktop, and kept nowhere else),
// revokes one after asking (`DELETE /me/tokens/{id}`) and shows what a token did
// (`GET /me/tokens/{id}/activity`, 20 entries a page). Part of the settings screen: its listeners
// and requests end with it. Markup: settings/tokens-markup.js; strings: i18n/tokens.*.js.

import { render } from '../../html.js';
import { t } from '../../i18n.js';
import { api, hasCode } from '../../api/client.js';
import { confirmDialog, errorText, errorView, fieldError, loadingView, setBusy, toast } from '../../ui.js';
import { activityMarkup, createdMarkup, tokenListMarkup } from './tokens-markup.js';

const PER_PAGE = 20;

/** Claude Desktop's claude_desktop_config.json for the MCP address `url`: mcp-remote sends the
 * token from the environment (an http address other than this machine needs `--allow-http`). */
function claudeConfig(url, secret) {
  const args = ['mcp-remote', url, '--header', 'Authorization: Bearer ${FLASHCARDS_TOKEN}'];
  const { protocol, hostname } = new URL(url);
  if (protocol === 'http:' && !['localhost', '127.0.0.1', '[::1]'].includes(hostname)) args.push('--allow-http');
  const server = { command: 'npx', args, env: { FLASHCARDS_TOKEN: secret } };
  return JSON.stringify({ mcpServers: { 'smart-flashcards': server } }, null, 2);
}

/** Selects the text of `el` (a field or a <pre>), for copying by hand. */
function selectText(el) {
  if (typeof el.select === 'function') { el.focus(); el.select(); return; }
  const range = document.createRange();
  range.selectNodeContents(el);
  getSelection()?.removeAllRanges();
  getSelection()?.addRange(range);
}

export class TokensSection {
  /** The tokens, newest first (null until loaded). */
  #tokens = null;
  /** The opened activities by token id: {items (null while the first page loads), page, total, failed}. */
  #activity = new Map();

  constructor(screen) {
    this.screen = screen;
    this.form = screen.$('#token-form');
    this.list = screen.$('#token-list');
    this.created = screen.$('#token-created');
  }

  start() {
    const { screen } = this;
    screen.on('#token-form', 'submit', (event) => { event.preventDefault(); this.#create(); });
    screen.on('#token-name', 'input', (event) => {
      if (event.target.value.trim()) this.#nameError('');
    });
    screen.on('#token-list', 'click', (event) => this.#listClick(event));
    screen.on('#token-created', 'click', (event) => this.#createdClick(event));
    this.#load();
  }

  get #aborted() { return this.screen.signal.aborted; }

  async #load() {
    render(this.list, loadingView(t('tokens.loading')));
    try {
      this.#tokens = await api.tokens({ signal: this.screen.signal });
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      render(this.list, errorView(errorText(error, 'tokens.loadError')));
      return;
    }
    if (!this.#aborted) this.#draw();
  }

  /** Draws the list again; the focus goes to the element of id `focusId` (when given). */
  #draw(focusId) {
    render(this.list, tokenListMarkup(this.#tokens, this.#activity));
    if (focusId) document.getElementById(focusId)?.focus();
  }

  #listClick(event) {
    const button = event.target.closest('button');
    if (!button) return;
    const { activity, more, revoke, activityRetry } = button.dataset;
    if (button.hasAttribute('data-retry')) this.#load();
    else if (activity) this.#toggleActivity(activity);
    else if (more) this.#more(more, button);
    else if (activityRetry) this.#retryActivity(activityRetry);
    else if (revoke) this.#revoke(revoke);
  }

  /** The name's problem under the field, also spoken when the focus is in it already ('' clears it). */
  #nameError(message) {
    const name = this.form.elements.name;
    fieldError(name, message);
    document.getElementById(`${name.id}-error`)?.setAttribute('role', 'alert');
  }

  async #create() {
    const { form } = this;
    const name = form.elements.name;
    const value = name.value.trim();
    const failure = form.querySelector('#token-form-error');
    failure.textContent = '';
    this.#nameError(value ? '' : t('tokens.nameEmpty'));
    if (!value) { name.focus(); return; }
    const scopes = form.elements.scope.value === 'write' ? ['read', 'write'] : ['read'];
    const days = form.elements.expiry.value;
    const button = form.querySelector('button[type=submit]');
    setBusy(button, true);
    try {
      const { token, secret } = await api.createToken(value, scopes, days ? Number(days) : null);
      if (this.#aborted) return;
      form.reset();
      if (this.#tokens) this.#tokens = [token, ...this.#tokens.filter((x) => x.id !== token.id)];
      if (this.#tokens) this.#draw(); else this.#load();
      this.#showCreated(token, secret);
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401) return;
      failure.textContent = hasCode(error, 'too_many_tokens') ? t('tokens.tooMany') : errorText(error, 'tokens.createError');
    } finally {
      setBusy(button, false);
    }
  }

  /** The new token's secret (this once), the MCP address and Claude Desktop's configuration. */
  #showCreated(token, secret) {
    const url = `${location.origin}/mcp`;
    render(this.created, createdMarkup({ name: token.name, secret, url, config: claudeConfig(url, secret) }));
    this.created.dataset.token = token.id;
    this.created.hidden = false;
    this.created.querySelector('#token-created-title').focus();
  }

  /** "Fertig": the secret leaves the page; the focus goes to the token in the list. */
  #dismissCreated() {
    const id = this.created.dataset.token;
    this.created.hidden = true;
    this.created.replaceChildren();
    delete this.created.dataset.token;
    (document.getElementById(`token-${id}-name`) || this.form.elements.name).focus();
  }

  #createdClick(event) {
    const button = event.target.closest('button');
    if (!button) return;
    if (button.id === 'token-done') this.#dismissCreated();
    else if (button.dataset.copy) this.#copy(button);
  }

  /** Copies a field's or the configuration's text; says so (politely), or selects it for Ctrl+C. */
  async #copy(button) {
    const source = document.getElementById(button.dataset.copy);
    if (!source) return;
    const text = typeof source.value === 'string' ? source.value : source.textContent;
    try {
      await navigator.clipboard.writeText(text);
      toast(t(button.dataset.copied));
    } catch {
      selectText(source);
      toast(t('tokens.copyFailed'), 'error');
    }
  }

  async #revoke(id) {
    const token = this.#tokens?.find((x) => x.id === id);
    if (!token) return;
    const ok = await confirmDialog({
      title: t('tokens.revokeTitle', { name: token.name }), text: t('tokens.revokeText'), confirmLabel: t('tokens.revoke'),
    });
    if (!ok || this.#aborted) return;
    try {
      await api.revokeToken(id);
    } catch (error) {
      // 404: it is gone already, as good as revoked.
      if (error.status === 401 || this.#aborted) return;
      if (error.status !== 404) { toast(errorText(error, 'tokens.revokeError'), 'error'); return; }
    }
    if (this.#aborted) return;
    token.revokedAt = new Date().toISOString();
    if (this.created.dataset.token === id) { this.created.hidden = true; this.created.replaceChildren(); }
    this.#draw(`token-${id}-name`);
    toast(t('tokens.revoked', { name: token.name }));
  }

  /** Shows a token's activity (or hides it again), loading its first page when opened. */
  async #toggleActivity(id) {
    if (this.#activity.has(id)) {
      this.#activity.delete(id);
      this.#drawActivity(id);
      return;
    }
    const state = { items: null, page: 0, total: 0, failed: false };
    this.#activity.set(id, state);
    this.#drawActivity(id);
    if (await this.#fetchPage(id, state, 1)) this.#drawActivity(id);
  }

  async #retryActivity(id) {
    const state = this.#activity.get(id);
    if (!state) return;
    state.failed = false;
    this.#drawActivity(id);
    if (await this.#fetchPage(id, state, 1)) this.#drawActivity(id);
  }

  /** "Mehr laden": the next page; the focus goes to its first entry. */
  async #more(id, button) {
    const state = this.#activity.get(id);
    if (!state?.items) return;
    const before = state.items.length;
    setBusy(button, true);
    if (!(await this.#fetchPage(id, state, state.page + 1))) return;
    this.#drawActivity(id);
    const first = document.getElementById(`token-${id}-event-${before}`);
    (first || this.list.querySelector(`[data-more="${CSS.escape(id)}"]`))?.focus();
  }

  /** Loads page `page` into `state`; false when there is nothing to draw (left, or closed meanwhile). */
  async #fetchPage(id, state, page) {
    try {
      const result = await api.tokenActivity(id, page, PER_PAGE, { signal: this.screen.signal });
      if (this.#activity.get(id) !== state) return false;
      state.items = [...(state.items || []), ...(result.items || [])];
      state.page = page;
      state.total = Number(result.total ?? state.items.length);
      state.failed = false;
    } catch (error) {
      if (error.name === 'AbortError' || error.status === 401 || this.#activity.get(id) !== state) return false;
      state.failed = true;
    }
    return !this.#aborted;
  }

  /** Draws one token's activity (open or closed) without touching the rest of the list. */
  #drawActivity(id) {
    const region = document.getElementById(`token-${id}-activity`);
    const button = this.list.querySelector(`[data-activity="${CSS.escape(id)}"]`);
    if (!region || !button) return;
    const state = this.#activity.get(id);
    button.setAttribute('aria-expanded', String(Boolean(state)));
    region.hidden = !state;
    if (state) render(region, activityMarkup(id, state));
    else region.replaceChildren();
  }
}

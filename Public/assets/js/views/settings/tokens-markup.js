// The settings' "KI-Assistenten und Zugangstokens" as markup (settings/tokens.js makes it work):
// the section with its form, the token just created (its secret, the MCP address and a
// configuration for Claude Desktop), the list of tokens and a token's activity. Rendering only.

import { html } from '../../html.js';
import { formatDay, formatNumber, formatRelativeDay, t } from '../../i18n.js';
import { defineIcons, icon, loadingView } from '../../ui.js';
import { userZone } from '../../progress-ui.js';

defineIcons({
  copy: 'M9 9h10a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H9a1 1 0 0 1-1-1V10a1 1 0 0 1 1-1Zm-4 6H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1',
  key: 'M14.5 10.5a4.5 4.5 0 1 0-4.2 2.9L3 20.7V21h3v-2h2v-2h2l1.6-1.6a4.5 4.5 0 0 0 2.9-4.9ZM16 7h.01',
});

/** The expiry choices: days, '' for never; the second is chosen at first. */
const EXPIRY = ['', '30', '90', '365'];
const DEFAULT_EXPIRY = '90';

const scopeChoice = (scope, checked) => html`
          <label class="choice">
            <input type="radio" name="scope" value="${scope}" ${checked ? 'checked' : ''}>
            <span><strong>${t(`tokens.scope.${scope}`)}</strong><span class="small muted">${t(`tokens.scope.${scope}Help`)}</span></span>
          </label>`;

/** The section as the settings page draws it: the form, room for a new token, the list loading. */
export const tokensSection = () => html`
      <section class="panel tokens" id="tokens" aria-labelledby="tokens-title">
        <h2 id="tokens-title">${t('tokens.title')}</h2>
        <p class="muted">${t('tokens.lead')}</p>
        <form id="token-form" class="stack-form token-form" novalidate>
          <h3 class="token-subtitle">${t('tokens.newTitle')}</h3>
          <div class="field">
            <label for="token-name">${t('tokens.name')}</label>
            <input id="token-name" name="name" type="text" maxlength="100" autocomplete="off"
              aria-describedby="token-name-help" data-describedby="token-name-help">
            <p class="help" id="token-name-help">${t('tokens.nameHelp')}</p>
          </div>
          <fieldset class="choice-group" id="token-scope">
            <legend>${t('tokens.scope')}</legend>
            ${scopeChoice('read', true)}
            ${scopeChoice('write', false)}
          </fieldset>
          <div class="field token-expiry">
            <label for="token-expiry">${t('tokens.expiry')}</label>
            <select id="token-expiry" name="expiry">
              ${EXPIRY.map((days) => html`<option value="${days}" ${days === DEFAULT_EXPIRY ? 'selected' : ''}>${t(`tokens.expiry.${days || 'never'}`)}</option>`)}
            </select>
          </div>
          <div class="alert alert-error token-form-error" id="token-form-error" role="alert"></div>
          <div class="form-actions"><button type="submit" class="btn btn-primary">${icon('key')}<span>${t('tokens.create')}</span></button></div>
        </form>
        <div class="token-created" id="token-created" hidden></div>
        <h3 class="token-subtitle" id="token-list-title">${t('tokens.listTitle')}</h3>
        <div class="token-list-host" id="token-list">${loadingView(t('tokens.loading'))}</div>
      </section>`;

/** A read-only value with its copy button (`data-copy`: the element whose text is copied). */
const copyField = (id, label, value, button, copied) => html`
          <div class="field">
            <label for="${id}">${label}</label>
            <div class="copy-row">
              <input id="${id}" type="text" class="copy-value" readonly value="${value}" spellcheck="false" autocomplete="off">
              <button type="button" class="btn btn-secondary" data-copy="${id}" data-copied="${copied}">${icon('copy')}<span>${button}</span></button>
            </div>
          </div>`;

/** The token just created: its secret (shown this once), the MCP address, Claude Desktop's configuration. */
export const createdMarkup = ({ name, secret, url, config }) => html`
          <h3 class="token-subtitle" id="token-created-title" tabindex="-1">${t('tokens.created', { name })}</h3>
          <p class="alert alert-info" id="token-only-now">${t('tokens.onlyNow')}</p>
          ${copyField('token-secret', t('tokens.secret'), secret, t('tokens.copy'), 'tokens.copied')}
          ${copyField('token-url', t('tokens.mcpUrl'), url, t('tokens.copyUrl'), 'tokens.copiedUrl')}
          <figure class="token-config">
            <figcaption class="label">${t('tokens.config')}</figcaption>
            <pre id="token-config"><code>${config}</code></pre>
            <div><button type="button" class="btn btn-secondary" data-copy="token-config" data-copied="tokens.copiedConfig">${icon('copy')}<span>${t('tokens.copyConfig')}</span></button></div>
          </figure>
          <p class="help">${t('tokens.configHelp')}</p>
          <div class="form-actions"><button type="button" class="btn btn-primary" id="token-done">${icon('check')}<span>${t('tokens.done')}</span></button></div>`;

/** 'active', 'expired' or 'revoked'. */
function tokenStatus(token, now = Date.now()) {
  if (token.revokedAt) return 'revoked';
  if (token.expiresAt && Date.parse(token.expiresAt) <= now) return 'expired';
  return 'active';
}

/** A moment as the learner's calendar day ("12. März 2026"). */
function dayText(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '–';
  let day;
  try {
    day = new Intl.DateTimeFormat('en-CA', { timeZone: userZone(), year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
  } catch {
    day = date.toISOString().slice(0, 10);
  }
  return formatDay(day, { day: 'numeric', month: 'long', year: 'numeric' });
}

/** What a use of the token did, in words: "3 Karten, 1 Stapel" (a kind without words: "kind: n"). */
function countsText(counts) {
  return Object.entries(counts || {}).filter(([, n]) => Number(n) > 0).map(([kind, n]) => {
    const key = `tokens.count.${kind}`;
    const text = t(key, { count: Number(n) });
    return text === key ? `${kind}: ${formatNumber(Number(n))}` : text;
  }).join(', ');
}

/** A tool of the MCP server by its title ("Karten hinzufügen"), else '' (a route of the API). */
function toolTitle(action) {
  const key = `tokens.tool.${action}`;
  const title = t(key);
  return title === key ? '' : title;
}

const eventMarkup = (id, item, index) => html`
                <li class="token-event" id="token-${id}-event-${index}" tabindex="-1">
                  <span class="token-event-action">${toolTitle(item.action) ? html`<strong>${toolTitle(item.action)}</strong> ` : ''}<code>${item.action}</code>
                    <span class="small muted">${t(`tokens.via.${item.via === 'mcp' ? 'mcp' : 'api'}`)}</span></span>
                  <time class="small muted" datetime="${item.at}">${formatRelativeDay(item.at)}</time>
                  <span class="token-event-counts">${countsText(item.counts)}</span>
                </li>`;

/** A token's activity (`state`: {items, total, failed}), once opened. */
export function activityMarkup(id, state) {
  const { items } = state;
  if (!items) {
    return state.failed
      ? html`<p class="field-error" role="alert">${t('tokens.activityError')}</p>
             <div><button type="button" class="btn btn-secondary btn-sm" data-activity-retry="${id}">${t('retry')}</button></div>`
      : loadingView(t('tokens.activityLoading'));
  }
  if (!items.length) return html`<p class="muted">${t('tokens.activityEmpty')}</p>`;
  return html`
              <ol class="token-events">${items.map((item, index) => eventMarkup(id, item, index))}</ol>
              <p class="small muted">${t('tokens.activityShown', { shown: formatNumber(items.length), count: state.total })}</p>
              ${state.failed ? html`<p class="field-error" role="alert">${t('tokens.activityError')}</p>` : ''}
              ${items.length < state.total ? html`<div><button type="button" class="btn btn-secondary btn-sm" data-more="${id}">${t('tokens.more')}</button></div>` : ''}`;
}

const fact = (label, value) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`;

function tokenMarkup(token, activity) {
  const status = tokenStatus(token);
  const id = token.id;
  const open = Boolean(activity);
  const write = (token.scopes || []).includes('write');
  return html`
          <li class="token-item" data-token="${id}">
            <div class="token-head">
              <h4 class="token-name" id="token-${id}-name" tabindex="-1">${token.name}</h4>
              <span class="pill token-status token-status-${status}">${t(`tokens.status.${status}`)}</span>
            </div>
            <dl class="token-facts">
              ${fact(t('tokens.scope'), t(write ? 'tokens.scope.write' : 'tokens.scope.read'))}
              ${fact(t('tokens.prefix'), html`<code class="token-prefix">${token.prefix}…</code>`)}
              ${fact(t('tokens.createdAt'), dayText(token.createdAt))}
              ${fact(t('tokens.lastUsed'), token.lastUsedAt ? formatRelativeDay(token.lastUsedAt) : t('tokens.neverUsed'))}
              ${token.revokedAt ? fact(t('tokens.revokedAt'), dayText(token.revokedAt))
                : fact(t('tokens.expires'), token.expiresAt ? dayText(token.expiresAt) : t('tokens.neverExpires'))}
            </dl>
            <div class="actions">
              <button type="button" class="btn btn-secondary btn-sm" data-activity="${id}" aria-expanded="${String(open)}"
                aria-controls="token-${id}-activity" aria-describedby="token-${id}-name">${icon('down')}<span>${t('tokens.activity')}</span></button>
              ${status === 'active' ? html`<button type="button" class="btn btn-danger-ghost btn-sm" data-revoke="${id}"
                aria-describedby="token-${id}-name">${icon('x')}<span>${t('tokens.revoke')}</span></button>` : ''}
            </div>
            <div class="token-activity" id="token-${id}-activity" ${open ? '' : 'hidden'}>${open ? activityMarkup(id, activity) : ''}</div>
          </li>`;
}

/** The list (newest first) or its empty state; `activity`: the opened activities by token id. */
export const tokenListMarkup = (tokens, activity) => (tokens.length
  ? html`<ul class="token-list" aria-labelledby="token-list-title">${tokens.map((token) => tokenMarkup(token, activity.get(token.id)))}</ul>`
  : html`<p class="muted token-empty" id="token-empty">${t('tokens.empty')}</p>`);

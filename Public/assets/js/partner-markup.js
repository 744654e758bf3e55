// The study partner's panel as markup (partner-panel.js makes it work): the frame with its subject,
// the conversation, the quick actions and the question field; the state without a language model;
// a turn of the conversation and the cards an answer is grounded in. Rendering only: every text
// goes through html`` (the learner's cards and questions stay text).

import { html } from './html.js';
import { t } from './i18n.js';
import { icon, loadingView } from './ui.js';

/** The quick actions: the API's `action` and the text they send as the message. */
export const ACTIONS = ['explain', 'example', 'quiz', 'more_cards'];

/** A text shortened to `max` characters on one line (a card's question as a subject or source). */
export const shortLine = (text, max) => {
  const chars = Array.from(String(text ?? '').replace(/\s+/g, ' ').trim());
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('');
};

/** The panel's frame: heading, subject (`subject`: the line under it), close button, the body
 * (loading until the panel knows whether the server has a model). */
export const panelMarkup = (subject) => html`
  <div class="partner">
    <header class="partner-head">
      <div class="partner-heading">
        <h2 id="partner-title" class="partner-title">${icon('chat')}<span>${t('partner.title')}</span></h2>
        <p class="small muted partner-subject" id="partner-subject">${subject}</p>
      </div>
      <button type="button" class="btn btn-ghost btn-icon" data-cancel aria-label="${t('partner.close')}">${icon('x')}</button>
    </header>
    <div class="partner-body" id="partner-body">${loadingView(t('partner.loading'))}</div>
  </div>`;

/** No language model on this server: one sentence and the way to the learner's own assistant. */
export const noModelMarkup = () => html`
  <div class="partner-off" id="partner-off">
    <p class="partner-off-text" id="partner-off-text">${t('partner.noModel')}</p>
    <p class="muted">${t('partner.mcpLead')}
      <a href="/app/settings#tokens" id="partner-mcp">${t('partner.mcpLink')}</a></p>
  </div>`;

/** The conversation, the quick actions and the question field (`intro`: the first line). */
export const chatMarkup = (intro) => html`
  <section class="partner-log" id="partner-log" aria-label="${t('partner.log')}" tabindex="0">
    <p class="muted partner-intro">${intro}</p>
  </section>
  <p class="visually-hidden" id="partner-status" role="status"></p>
  <div class="partner-composer">
    <div class="partner-busy" id="partner-busy" hidden>
      <span class="spinner" aria-hidden="true"></span>
      <span class="muted small">${t('partner.writing')}</span>
      <button type="button" class="btn btn-secondary btn-sm" id="partner-stop">${t('partner.stop')}</button>
    </div>
    <div class="partner-actions" role="group" aria-label="${t('partner.actions')}">
      ${ACTIONS.map((action) => html`<button type="button" class="btn btn-secondary btn-sm" data-action="${action}">${t(`partner.action.${action}`)}</button>`)}
    </div>
    <form class="partner-form" id="partner-form" novalidate>
      <label for="partner-input" class="visually-hidden">${t('partner.input')}</label>
      <textarea id="partner-input" name="message" rows="2" maxlength="2000" autocomplete="off"
        placeholder="${t('partner.placeholder')}" aria-describedby="partner-help" data-describedby="partner-help"></textarea>
      <button type="submit" class="btn btn-primary" id="partner-send">${t('partner.send')}</button>
      <p class="help partner-help" id="partner-help">${t('partner.inputHelp')}</p>
    </form>
  </div>`;

/** The learner's turn (their question or the quick action's text). */
export const userTurn = (message) => html`
  <span class="visually-hidden">${t('partner.you')}</span>
  <p class="partner-text">${message}</p>`;

/** The partner's turn, empty: its text comes while it streams, the rest once it is done. */
export const answerTurn = () => html`
  <span class="visually-hidden">${t('partner.partner')}</span>
  <div class="partner-text is-streaming" data-text></div>
  <p class="small muted" data-note hidden></p>
  <div class="partner-sources" data-sources hidden></div>
  <div class="partner-drafts" data-drafts hidden></div>
  <div class="alert alert-error partner-error" data-error hidden>
    <p data-error-text></p>
    <button type="button" class="btn btn-secondary btn-sm" data-again>${t('partner.again')}</button>
  </div>`;

/** The cards an answer is grounded in ("Aus deinen Karten: …"), each by its question. */
export const sourcesMarkup = (sources) => html`
  <p class="small muted">${t('partner.sources')}</p>
  <ul class="partner-source-list">
    ${sources.map((source) => html`<li title="${shortLine(source.question, 300)}">${shortLine(source.question, 90)}</li>`)}
  </ul>`;

/** The drafts a "more cards" answer started: where they are reviewed. */
export const draftsMarkup = (href) => html`
  <p class="small muted">${t('partner.draftsLead')}</p>
  <a class="btn btn-magic btn-sm" href="${href}" data-drafts-link>${icon('sparkles')}<span>${t('partner.drafts')}</span></a>`;

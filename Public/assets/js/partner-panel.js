// The study partner ("Lernpartner", docs/web.md): a chat about a stack or one of its cards,
// grounded in the learner's own cards. One PartnerPanel per subject owns the conversation (its
// turns, sent as the history of the next question), the answer under way (its AbortController:
// "Stopp", closing the panel and leaving the screen end it) and the open panel: a <modal-dialog>
// (the focus inside, Escape closes, the focus back on the button that opened it), a side panel on
// wide screens and a whole-screen sheet on phones (css/partner.css). Without a language model on
// the server it says so and points to the learner's own assistant over MCP (the settings' access
// tokens). An answer streams in as plain text (api/partner.js) and is replaced by the server's
// sanitised HTML once complete, inserted as a card's (rich-text.js); the live region speaks it
// once, when it is done, not every piece. The screen that opens it passes its signal: leaving the
// screen ends the panel.

import { render } from './html.js';
import { currentLanguage, loadStrings, t } from './i18n.js';
import { enc, hasCode } from './api/client.js';
import { PartnerStreamError, askPartner, partnerModel } from './api/partner.js';
import { cardPlainText, setRichHTML } from './rich-text.js';
import { announce, errorText, errorView, fieldError, loadStylesheet, loadingView, toast } from './ui.js';
import {
  ACTIONS, answerTurn, chatMarkup, draftsMarkup, noModelMarkup, panelMarkup, shortLine, sourcesMarkup, userTurn,
} from './partner-markup.js';

/** What the API takes: the last 20 turns, each at most 4,000 characters; a message of 2,000. */
const MAX_TURNS = 20;
const MAX_TURN_CHARS = 4000;
const MAX_MESSAGE = 2000;
const MAX_SOURCES = 6;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The server's model (null: none), asked once per page life; a failed look is asked again. */
let modelAnswer = null;
function serverModel(signal) {
  modelAnswer ??= partnerModel({ signal }).catch((error) => {
    modelAnswer = null;
    throw error;
  });
  return modelAnswer;
}

/** The parts of a partner's turn (answerTurn). */
const partsOf = (turn) => {
  const $ = (selector) => turn.querySelector(selector);
  return {
    turn, text: $('[data-text]'), note: $('[data-note]'), sources: $('[data-sources]'), drafts: $('[data-drafts]'),
    error: $('[data-error]'), errorText: $('[data-error-text]'),
  };
};

export class PartnerPanel {
  /** The turns answered so far ({role, content}): the history of the next question. */
  #history = [];
  /** The turns' elements, shown again when the panel opens again. */
  #turns = [];
  /** The answer under way (its AbortController), or null. */
  #running = null;
  /** The last answer, when it failed: {turn, message, action} for "Nochmal". */
  #again = null;
  /** The open panel (a <modal-dialog>) and the controller of its listeners. */
  #modal = null;
  #listening = null;
  #gone = false;
  /** The elements of the open chat. */
  el = null;

  /** `stack`: {id, name}; `card`: the card it is about (null: the whole stack); `signal`: the
   * screen's, whose end closes the panel and ends its answer. */
  constructor({ stack, card = null, signal }) {
    this.stack = stack;
    this.card = card;
    signal?.addEventListener('abort', () => this.destroy(), { once: true });
  }

  /** Whether the panel is about this card (`cardId` null: the stack itself). */
  isAbout(stackId, cardId = null) {
    return this.stack.id === stackId && (this.card?.id ?? null) === cardId;
  }

  /** Opens the panel; when it closes, the focus returns to `opener`. */
  async open(opener) {
    if (this.#modal || this.#gone) return;
    let openModal;
    try {
      await Promise.all([loadStrings('partner'), loadStylesheet('/assets/css/partner.css')]);
      ({ openModal } = await import('../components/modal-dialog/modal-dialog.js'));
    } catch (error) {
      toast(errorText(error), 'error');
      return;
    }
    if (this.#modal || this.#gone) return;
    const subject = this.card
      ? t('partner.subjectCard', { q: shortLine(cardPlainText(this.card, 'question'), 120) })
      : t('partner.subjectStack', { name: this.stack.name });
    this.#listening = new AbortController();
    const modal = openModal(panelMarkup(subject), { labelledBy: 'partner-title', describedBy: 'partner-subject', className: 'partner-dialog' });
    this.#modal = modal;
    modal.done.then(() => {
      if (this.#modal === modal) this.#closed();
      if (opener?.isConnected) opener.focus({ preventScroll: true });
    });
    await this.#showBody(modal);
  }

  close() {
    this.#modal?.close();
  }

  /** Ends the panel for good (the screen was left). */
  destroy() {
    this.#gone = true;
    this.#running?.abort();
    this.close();
  }

  #closed() {
    this.#running?.abort();
    this.#listening?.abort();
    this.#modal = null;
    this.el = null;
  }

  get #signal() { return this.#listening.signal; }

  /** The chat, or the sentence that there is no model, once the server has said which. */
  async #showBody(modal) {
    const body = modal.dialog.querySelector('#partner-body');
    let model;
    try {
      model = await serverModel(this.#signal);
    } catch (error) {
      if (this.#modal !== modal || this.#signal.aborted) return;
      // Another panel's look, ended with that panel: ask again.
      if (error.name === 'AbortError') { await this.#showBody(modal); return; }
      render(body, errorView(t('partner.checkError')));
      body.querySelector('[data-retry]').addEventListener('click', () => {
        render(body, loadingView(t('partner.loading')));
        this.#showBody(modal);
      }, { signal: this.#signal });
      return;
    }
    if (this.#modal !== modal) return;
    if (model) this.#showChat(body);
    else this.#showNoModel(body);
  }

  #showNoModel(body) {
    const focused = body.contains(document.activeElement);
    this.el = null;
    render(body, noModelMarkup());
    if (focused) body.querySelector('#partner-mcp').focus();
  }

  #showChat(body) {
    render(body, chatMarkup(t(this.card ? 'partner.introCard' : 'partner.introStack')));
    const $ = (selector) => body.querySelector(selector);
    this.el = {
      body, log: $('#partner-log'), status: $('#partner-status'), busy: $('#partner-busy'), form: $('#partner-form'),
      input: $('#partner-input'), send: $('#partner-send'), stop: $('#partner-stop'), actions: [...body.querySelectorAll('[data-action]')],
    };
    const { log, form, input, stop } = this.el;
    const signal = this.#signal;
    log.append(...this.#turns);
    log.scrollTop = log.scrollHeight;
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#send(input.value.trim(), null);
    }, { signal });
    // Enter sends, Shift+Enter is a new line (and an input method's Enter picks its word).
    input.addEventListener('keydown', (event) => {
      if (event.key !== 'Enter' || event.shiftKey || event.isComposing || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      form.requestSubmit();
    }, { signal });
    body.querySelector('.partner-actions').addEventListener('click', (event) => {
      const action = event.target.closest('[data-action]')?.dataset.action;
      if (ACTIONS.includes(action)) this.#send(t(`partner.action.${action}`), action);
    }, { signal });
    stop.addEventListener('click', () => this.#running?.abort(), { signal });
    log.addEventListener('click', (event) => {
      const again = this.#again;
      if (again && event.target.closest('[data-again]') && again.turn.contains(event.target)) this.#send(again.message, again.action, again.turn);
    }, { signal });
    input.focus();
  }

  /** Asks the partner `message` (the question, or a quick action's text with its `action`);
   * `again`: the failed turn to answer anew ("Nochmal"). */
  async #send(message, action, again = null) {
    if (this.#running || !this.el) return;
    const { input } = this.el;
    if (!message) {
      fieldError(input, t('partner.empty'));
      input.focus();
      return;
    }
    fieldError(input, '');
    const text = message.slice(0, MAX_MESSAGE);
    this.#again = null; // only the last answer can be asked again
    if (!again) {
      this.#addTurn('user', userTurn(text));
      if (!action) input.value = '';
    }
    const parts = partsOf(again ?? this.#addTurn('assistant', answerTurn()));
    this.#reset(parts);
    const controller = new AbortController();
    this.#running = controller;
    this.#setBusy(true);
    let streamed = '';
    try {
      const answer = await askPartner(this.stack.id, {
        message: text, cardId: this.card?.id ?? null, action: action ?? null, history: this.#historyToSend(),
      }, {
        signal: controller.signal,
        onSources: (sources) => this.#showSources(parts, sources),
        onDelta: (piece, soFar) => {
          streamed = soFar;
          this.#follow(() => parts.text.append(piece));
        },
      });
      this.#finish(parts, answer, text);
    } catch (error) {
      this.#failed(parts, error, { message: text, action, streamed });
    } finally {
      if (this.#running === controller) this.#running = null;
      this.#setBusy(false);
    }
  }

  #historyToSend() {
    return this.#history.slice(-MAX_TURNS).map(({ role, content }) => ({ role, content: content.slice(0, MAX_TURN_CHARS) }));
  }

  #remember(question, answer) {
    this.#history.push({ role: 'user', content: question }, { role: 'assistant', content: answer });
    this.#history = this.#history.slice(-MAX_TURNS);
  }

  /** A turn of the conversation, added at its end. */
  #addTurn(role, markup) {
    const turn = document.createElement('div');
    turn.className = `partner-turn partner-turn-${role}`;
    render(turn, markup);
    this.#turns.push(turn);
    this.#follow(() => this.el.log.append(turn), true);
    return turn;
  }

  /** Runs `change` and keeps the conversation scrolled to its end, when it was there (or `always`). */
  #follow(change, always = false) {
    const log = this.el?.log;
    const atEnd = log && log.scrollHeight - log.scrollTop - log.clientHeight < 48;
    change();
    if (log && (atEnd || always)) log.scrollTop = log.scrollHeight;
  }

  #reset(parts) {
    parts.text.replaceChildren();
    parts.text.className = 'partner-text is-streaming';
    parts.text.hidden = false;
    for (const part of [parts.note, parts.sources, parts.drafts, parts.error]) part.hidden = true;
  }

  #showSources(parts, sources) {
    const list = sources.filter((source) => typeof source?.question === 'string' && source.question.trim()).slice(0, MAX_SOURCES);
    if (!list.length) return;
    render(parts.sources, sourcesMarkup(list));
    this.#follow(() => { parts.sources.hidden = false; });
  }

  /** The answer is complete: the server's HTML in place of the streamed text, the drafts' link. */
  #finish(parts, answer, question) {
    parts.text.classList.remove('is-streaming');
    if (answer.html) setRichHTML(parts.text, answer.html);
    const spoken = parts.text.innerText.replace(/\s+/g, ' ').trim(); // blocks apart, as they are seen
    this.#remember(question, answer.text || spoken);
    if (answer.jobId && UUID.test(answer.jobId)) {
      render(parts.drafts, draftsMarkup(`/app/stacks/${enc(this.stack.id)}/create?job=${enc(answer.jobId)}`));
      parts.drafts.hidden = false;
    }
    if (this.el) announce(this.el.status, t('partner.answered', { text: spoken }));
    this.#follow(() => {});
  }

  /** Stopped (what came stays, and counts as the answer), refused or broken off (what came stays,
   * with the reason and "Nochmal"). */
  #failed(parts, error, request) {
    parts.text.classList.remove('is-streaming');
    if (!parts.text.textContent) parts.text.hidden = true;
    if (error.name === 'AbortError') {
      if (request.streamed) this.#remember(request.message, request.streamed);
      parts.note.textContent = t('partner.stopped');
      parts.note.hidden = false;
      return;
    }
    if (error.status === 401) return;
    if (hasCode(error, 'partner_needs_model')) {
      modelAnswer = Promise.resolve(null);
      if (this.el) this.#showNoModel(this.el.body);
      return;
    }
    const message = this.#errorText(error);
    parts.errorText.textContent = message;
    parts.error.hidden = false;
    this.#again = { turn: parts.turn, message: request.message, action: request.action };
    if (this.el) announce(this.el.status, message);
  }

  #errorText(error) {
    const german = currentLanguage() === 'de';
    if (error instanceof PartnerStreamError) return german && error.serverMessage ? error.serverMessage : t('partner.streamError');
    if (hasCode(error, 'card_not_found')) return t('partner.cardGone');
    if (hasCode(error, 'stack_not_found')) return t('partner.stackGone');
    if (error.status === 0 || error.status === 429) return errorText(error);
    if (error.status === 400 && german && error.message && error.message !== error.code) return error.message;
    return t('partner.error');
  }

  /** While an answer streams: the loading line with "Stopp" (which takes the focus), the question
   * field and the actions disabled; afterwards the focus goes back to the field. */
  #setBusy(on) {
    if (!this.el?.input.isConnected) return;
    const { busy, input, send, actions, log, stop, status } = this.el;
    const active = document.activeElement;
    const refocus = !on && (!active || active === document.body || active === stop);
    busy.hidden = !on;
    for (const control of [input, send, ...actions]) control.disabled = on;
    log.setAttribute('aria-busy', String(on));
    if (on) {
      stop.focus();
      announce(status, t('partner.writing'));
    } else if (refocus) {
      input.focus();
    }
  }
}

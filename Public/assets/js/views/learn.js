// Learning session (/app/stacks/{id}/learn): reveal, rate, next card. The rating answer carries
// the next card, so it appears without a second request.

import { html, render } from '../html.js';
import { dueCountValue, formatInterval, formatRelativeDay, t } from '../i18n.js';
import { api } from '../api/client.js';
import { registerFlipCard } from '../../components/flip-card/flip-card.js';
import { errorText, errorView, icon, loadingView, stackBreadcrumb } from '../ui.js';

/** A random UUID, also outside secure contexts (LAN access over plain HTTP). */
function uuid() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The button text, e.g. "Einfach (10 Minuten)": label from our dictionary (the API's German
 * label as fallback), interval formatted from `intervalSeconds` in the current language. */
function optionParts(option) {
  const key = `learn.rating.${option.rating}`;
  const label = t(key) === key ? option.label : t(key);
  return { label, interval: formatInterval(option.intervalSeconds) };
}

export async function mount(root, ctx) {
  registerFlipCard();
  const id = ctx.params.stackId;
  render(root, loadingView(t('learn.loading')));
  let stack;
  let state;
  try {
    [stack, state] = await Promise.all([api.stack(id), api.studyNext(id, 0)]);
  } catch (error) {
    if (error.status === 401) return;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', () => mount(root, ctx));
    return;
  }

  const stackUrl = `/app/stacks/${id}`;
  let daysAhead = 0;
  let reviewed = 0;
  let busy = false;

  render(root, html`
    <section class="page learn">
      ${stackBreadcrumb(stack, stackUrl, t('learn.crumb'))}
      <h1 class="visually-hidden">${t('learn.crumb')}: ${stack.name}</h1>
      <div class="learn-status">
        <span class="counter" id="counter" role="status"></span>
        <span class="pill pill-ahead" id="ahead" hidden></span>
        <span class="muted small" id="remaining"></span>
      </div>
      <div class="progress" role="progressbar" aria-label="${t('learn.progress')}" aria-valuemin="0" aria-valuemax="100" id="progress">
        <span class="progress-bar" id="progress-bar"></span>
      </div>
      <div id="stage">
        <flip-card id="card"></flip-card>
        <div class="learn-controls">
          <div class="alert alert-error" role="alert" id="rate-error" hidden></div>
          <button type="button" class="btn btn-primary btn-lg" id="reveal">${t('learn.reveal')}</button>
          <div class="ratings" id="ratings" role="group" aria-label="${t('learn.rateLabel')}" hidden></div>
          <p class="kbd-help small muted hide-touch" id="keys"></p>
        </div>
      </div>
      <div id="finished" hidden></div>
    </section>
    <dialog class="dialog" id="done" aria-labelledby="done-title" aria-describedby="done-text">
      <div class="dialog-body">
        <div class="dialog-icon" aria-hidden="true">${icon('check')}</div>
        <h2 class="dialog-title" id="done-title">${t('learn.doneTitle')}</h2>
        <p class="muted" id="done-text"></p>
        <p class="small muted" id="done-next"></p>
        <form class="ahead-form" id="ahead-form" novalidate>
          <label for="ahead-days">
            <span>${t('learn.aheadBefore')}</span>
            <input id="ahead-days" type="number" inputmode="numeric" min="1" max="3650" value="1" aria-label="${t('learn.aheadLabel')}">
            <span>${t('learn.aheadAfter')}</span>
          </label>
          <button type="submit" class="btn btn-secondary">${t('learn.aheadGo')}</button>
          <p class="field-error" id="ahead-error" hidden>${t('learn.aheadInvalid')}</p>
        </form>
        <div class="dialog-actions">
          <a class="btn btn-primary btn-block" href="/app/stacks" id="to-dashboard" autofocus>${t('learn.toDashboard')}</a>
        </div>
      </div>
    </dialog>`);

  const card = root.querySelector('#card');
  // A stack with hints switched off shows no hint button (the server sends no hint then either).
  card.hintsEnabled = stack.hintsEnabled !== false;
  const revealButton = root.querySelector('#reveal');
  const ratings = root.querySelector('#ratings');
  const rateError = root.querySelector('#rate-error');
  const dialog = root.querySelector('#done');
  const stage = root.querySelector('#stage');
  const finished = root.querySelector('#finished');

  function updateStatus() {
    root.querySelector('#counter').textContent = t('learn.reviewed', { count: reviewed });
    const due = state.card ? state.dueCount : 0;
    root.querySelector('#remaining').textContent = state.card ? t('learn.remaining', { count: dueCountValue(due) }) : '';
    const percent = reviewed + due === 0 ? 100 : Math.round((reviewed / (reviewed + due)) * 100);
    root.querySelector('#progress-bar').style.width = `${percent}%`;
    root.querySelector('#progress').setAttribute('aria-valuenow', String(percent));
    const ahead = root.querySelector('#ahead');
    ahead.hidden = daysAhead === 0;
    ahead.textContent = t('learn.aheadBadge', { count: daysAhead });
  }

  function show(next) {
    state = next;
    updateStatus();
    rateError.hidden = true;
    if (!next.card) { finish(); return; }
    stage.hidden = false;
    finished.hidden = true;
    card.show(next.card);
    revealButton.hidden = false;
    ratings.hidden = true;
    render(ratings, html`${next.options.map((option, i) => html`
      <button type="button" class="btn btn-rate" data-index="${i}" data-color="${option.color}">
        <span class="rate-label">${optionParts(option).label}</span> <span class="rate-interval">(${optionParts(option).interval})</span><kbd aria-hidden="true">${i + 1}</kbd>
      </button>`)}`);
    root.querySelector('#keys').textContent = t('learn.keys', { keys: `1–${next.options.length}` });
  }

  function reveal() {
    if (card.revealed || !state.card) return;
    const hadFocus = document.activeElement === revealButton;
    card.reveal();
    revealButton.hidden = true;
    ratings.hidden = false;
    if (hadFocus) ratings.querySelector('button')?.focus();
  }

  async function rate(index) {
    const option = state.options[index];
    if (busy || !card.revealed || !option) return;
    busy = true;
    ratings.setAttribute('aria-busy', 'true');
    for (const b of ratings.querySelectorAll('button')) b.disabled = true;
    try {
      const result = await api.rate(id, state.card.id, option.rating, daysAhead, uuid());
      reviewed += 1;
      show(result.next);
      if (result.next.card) card.focus({ preventScroll: true });
    } catch (error) {
      if (error.status === 401) return;
      rateError.textContent = `${t('learn.error')} ${errorText(error)}`;
      rateError.hidden = false;
      for (const b of ratings.querySelectorAll('button')) b.disabled = false;
    } finally {
      busy = false;
      ratings.removeAttribute('aria-busy');
    }
  }

  function finish() {
    stage.hidden = true;
    const emptyStack = stack.cardCount === 0 && reviewed === 0 && !state.nextDueAt;
    if (emptyStack) {
      render(finished, html`
        <div class="state state-empty">
          <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
          <p class="empty-title">${t('learn.emptyStack')}</p>
          <p class="muted">${t('learn.emptyStackText')}</p>
          <a class="btn btn-primary" href="${stackUrl}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>
        </div>`);
      finished.hidden = false;
      return;
    }
    root.querySelector('#done-text').textContent = daysAhead > 0
      ? t('learn.doneAheadText', { count: daysAhead }) : t('learn.doneText');
    const nextText = [
      reviewed ? t('learn.sessionSummary', { count: reviewed }) : '',
      state.nextDueAt ? t('learn.nextDue', { date: formatRelativeDay(state.nextDueAt) }) : '',
    ].filter(Boolean).join(' ');
    root.querySelector('#done-next').textContent = nextText;
    render(finished, html`
      <div class="state state-done">
        <span class="success-icon" aria-hidden="true">${icon('check')}</span>
        <p class="empty-title">${t('learn.doneTitle')}</p>
        <p class="muted">${nextText}</p>
        <div class="form-actions">
          <a class="btn btn-secondary" href="/app/stacks">${t('learn.toDashboard')}</a>
          <button type="button" class="btn btn-primary" id="reopen">${t('learn.aheadGo')}</button>
        </div>
      </div>`);
    finished.hidden = false;
    finished.querySelector('#reopen').addEventListener('click', () => dialog.showModal());
    if (!dialog.open) dialog.showModal();
  }

  root.querySelector('#ahead-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = root.querySelector('#ahead-days');
    const days = Number(input.value);
    const invalid = !Number.isInteger(days) || days < 1 || days > 3650;
    root.querySelector('#ahead-error').hidden = !invalid;
    input.toggleAttribute('aria-invalid', invalid);
    if (invalid) { input.focus(); return; }
    const button = event.target.querySelector('button');
    button.disabled = true;
    try {
      const next = await api.studyNext(id, days);
      daysAhead = days;
      dialog.close();
      show(next);
      if (next.card) card.focus({ preventScroll: true });
    } catch (error) {
      if (error.status !== 401) {
        root.querySelector('#ahead-error').textContent = errorText(error);
        root.querySelector('#ahead-error').hidden = false;
      }
    } finally {
      button.disabled = false;
    }
  });

  revealButton.addEventListener('click', reveal);
  card.addEventListener('reveal-request', reveal);
  ratings.addEventListener('click', (event) => {
    const button = event.target.closest('button[data-index]');
    if (button) rate(Number(button.dataset.index));
  });

  const onKey = (event) => {
    if (dialog.open || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest('input, textarea, select, [contenteditable]')) return;
    if ((event.key === ' ' || event.key === 'Enter') && !card.revealed && state.card) {
      if (event.target.closest('a, button:not(#reveal)')) return;
      event.preventDefault();
      reveal();
    } else if (/^[1-9]$/.test(event.key) && card.revealed) {
      event.preventDefault();
      rate(Number(event.key) - 1);
    }
  };
  document.addEventListener('keydown', onKey);

  show(state);
  return () => {
    document.removeEventListener('keydown', onKey);
    if (dialog.open) dialog.close();
  };
}

// The swipe feed (/app/stacks/{id}/feed, or /app/feed for every stack): one card per screen.
// Tap (or Space) flips it; swipe up or ↓ for the next card, down or ↑ for the previous one;
// swipe right or → marks it understood (rated "I knew it" in its stack's scheduler, mode `feed`);
// swipe left or ← bookmarks it. Buttons do the same for mouse, keyboard and screen reader users.
// `?size=` limits how many cards the feed goes through.

import { html, render } from '../html.js';
import { t } from '../i18n.js';
import { api } from '../api/client.js';
import {
  announce, errorText, errorView, icon, loadStylesheet, loadingView, retryable, stackBreadcrumb, stacksBreadcrumb,
} from '../ui.js';
import { StudySession, knewItRating, sessionStacks, sizeFromQuery } from '../study-session.js';
import { summaryMarkup } from '../session-summary.js';
import { cardPlainText, setCardText } from '../rich-text.js';

const PAGE = 50;
/** A swipe is a move of at least this many CSS pixels; less is a tap. */
const SWIPE_PX = 60;
const TAP_PX = 10;

export const mount = retryable(mountFeed);

async function mountFeed(root, ctx, reload) {
  const stackId = ctx.params.stackId;
  render(root, loadingView(t('feed.loading')));
  // The card's label and flip cue are styled like the flip card's (its stylesheet loads on use).
  const styled = loadStylesheet('/assets/components/flip-card/flip-card.css');
  let session;
  try {
    session = new StudySession(await sessionStacks(stackId), { mode: 'feed', size: sizeFromQuery(ctx.query.get('size')) });
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  const stacks = session.stacks;
  const available = stacks.reduce((sum, s) => sum + s.cardCount, 0);
  const total = session.size ? Math.min(session.size, available) : available;
  const backUrl = stackId ? `/app/stacks/${stackId}` : '/app/stacks';

  // The cards loaded so far, in feed order: {card, stack, understood}.
  const items = [];
  const cursor = { stack: 0, page: 0, done: false };
  let position = 0;
  const bookmarked = new Set(); // cards bookmarked in this feed
  let busy = false;

  /** Loads the next page of cards (of the next stack when one is through). */
  async function loadMore() {
    while (!cursor.done && items.length < total) {
      const stack = stacks[cursor.stack];
      if (!stack) { cursor.done = true; break; }
      cursor.page += 1;
      const page = await session.cardsPage(stack, { page: cursor.page, perPage: PAGE });
      for (const card of page.items) if (items.length < total) items.push({ card, stack, understood: false });
      if (cursor.page * PAGE >= page.total) { cursor.stack += 1; cursor.page = 0; }
      if (page.items.length) return;
    }
  }

  try {
    await loadMore();
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }
  await styled;

  render(root, html`
    <section class="page feed">
      ${stackId ? stackBreadcrumb(stacks[0], backUrl, t('study.mode.feed')) : stacksBreadcrumb(`${t('study.allStacks')}: ${t('study.mode.feed')}`)}
      <h1 class="visually-hidden">${t('study.mode.feed')}: ${stackId ? stacks[0].name : t('study.allStacks')}</h1>
      <div class="learn-status">
        <span class="position" id="position"></span>
        <span class="counter" id="counter"></span>
        <span class="visually-hidden" id="announce" role="status" aria-live="polite"></span>
      </div>
      <div id="feed-stage">
        <div class="feed-viewport" id="viewport">
          <article class="feed-card" id="feed-card" tabindex="0" aria-roledescription="${t('feed.cardRole')}"
            aria-describedby="feed-help">
            <p class="pill pill-stack" id="from-stack" hidden></p>
            <span class="face-label" id="face-label"></span>
            <div class="feed-text" id="feed-question"></div>
            <div class="feed-text feed-answer" id="feed-answer" hidden></div>
            <span class="feed-marks">
              <span class="pill pill-bookmark" id="mark-bookmark" hidden>${icon('bookmark')}<span>${t('feed.bookmarked')}</span></span>
              <span class="pill pill-done" id="mark-understood" hidden>${icon('check')}<span>${t('feed.understood')}</span></span>
            </span>
            <span class="flip-cue" aria-hidden="true">${icon('flip')}<span>${t('feed.tapToFlip')}</span></span>
          </article>
        </div>
        <div class="alert alert-error" role="alert" id="feed-error" hidden></div>
        <div class="feed-actions" role="group" aria-label="${t('feed.actions')}">
          <button type="button" class="btn btn-secondary" id="feed-prev" aria-keyshortcuts="ArrowUp">${icon('up')}<span>${t('feed.prev')}</span></button>
          <button type="button" class="btn btn-secondary" id="feed-bookmark" aria-pressed="false" aria-keyshortcuts="ArrowLeft">${icon('bookmark')}<span>${t('feed.bookmark')}</span></button>
          <button type="button" class="btn btn-secondary" id="feed-flip" aria-keyshortcuts="Space">${icon('flip')}<span>${t('feed.flip')}</span></button>
          <button type="button" class="btn btn-primary" id="feed-good" aria-keyshortcuts="ArrowRight">${icon('check')}<span>${t('feed.good')}</span></button>
          <button type="button" class="btn btn-secondary" id="feed-next" aria-keyshortcuts="ArrowDown">${icon('down')}<span>${t('feed.next')}</span></button>
        </div>
        <p class="kbd-help small muted" id="feed-help"><span class="hide-touch">${t('feed.keys')}</span><span class="show-touch">${t('feed.swipes')}</span></p>
      </div>
      <div id="feed-end" hidden></div>
    </section>`);

  const $ = (sel) => root.querySelector(sel);
  const cardEl = $('#feed-card');
  const live = $('#announce');
  let flipped = false;

  function current() { return items[position]; }

  function updateStatus() {
    $('#position').textContent = t('learn.position', { n: Math.min(position + 1, total), total });
    $('#counter').textContent = t('feed.counts', { understood: session.reviews, bookmarked: bookmarked.size });
  }

  function show({ focus = false } = {}) {
    const item = current();
    if (!item) { end(); return; }
    flipped = false;
    session.shown();
    $('#feed-stage').hidden = false;
    $('#feed-end').hidden = true;
    $('#from-stack').hidden = !session.allStacks;
    $('#from-stack').textContent = session.allStacks ? t('study.fromStack', { name: item.stack.name }) : '';
    $('#face-label').textContent = t('learn.question');
    setCardText($('#feed-question'), item.card, 'question');
    setCardText($('#feed-answer'), item.card, 'answer');
    $('#feed-answer').hidden = true;
    cardEl.classList.remove('is-flipped');
    cardEl.setAttribute('aria-label', `${t('learn.question')}: ${cardPlainText(item.card, 'question')}`);
    markers();
    $('#feed-prev').disabled = position === 0;
    updateStatus();
    if (focus) cardEl.focus({ preventScroll: true });
  }

  function markers() {
    const item = current();
    $('#mark-bookmark').hidden = !item.card.bookmarked;
    $('#mark-understood').hidden = !item.understood;
    $('#feed-bookmark').setAttribute('aria-pressed', String(Boolean(item.card.bookmarked)));
    $('#feed-bookmark span').textContent = t(item.card.bookmarked ? 'feed.unbookmark' : 'feed.bookmark');
    $('#feed-good').disabled = item.understood;
  }

  function flip() {
    const item = current();
    if (!item) return;
    flipped = !flipped;
    $('#feed-answer').hidden = !flipped;
    $('#face-label').textContent = t(flipped ? 'learn.answer' : 'learn.question');
    cardEl.classList.toggle('is-flipped', flipped);
    if (flipped) announce(live, `${t('learn.answer')}: ${cardPlainText(item.card, 'answer')}`);
  }

  async function go(step) {
    if (busy) return;
    const target = position + step;
    if (target < 0) return;
    if (target >= items.length && !cursor.done && items.length < total) {
      busy = true;
      try { await loadMore(); } catch (error) { fail(error); return; } finally { busy = false; }
    }
    position = Math.min(target, items.length);
    cardEl.classList.add(step > 0 ? 'enter-up' : 'enter-down');
    setTimeout(() => cardEl.classList.remove('enter-up', 'enter-down'), 250);
    show({ focus: true });
  }

  async function understood() {
    const item = current();
    if (busy || !item || item.understood) return;
    busy = true;
    $('#feed-error').hidden = true;
    try {
      await session.rateCard(item.stack, item.card, knewItRating(item.stack));
      item.understood = true;
      markers();
      announce(live, t('feed.understoodDone'));
      busy = false;
      await go(1);
    } catch (error) {
      fail(error);
    } finally {
      busy = false;
    }
  }

  async function bookmark() {
    const item = current();
    if (busy || !item) return;
    busy = true;
    $('#feed-error').hidden = true;
    const on = !item.card.bookmarked;
    try {
      const updated = await api.setBookmark(item.stack.id, item.card.id, on);
      item.card.bookmarked = updated ? updated.bookmarked : on;
      if (on) bookmarked.add(item.card.id); else bookmarked.delete(item.card.id);
      markers();
      updateStatus();
      announce(live, t(on ? 'feed.bookmarkedDone' : 'feed.unbookmarkedDone'));
    } catch (error) {
      fail(error);
    } finally {
      busy = false;
    }
  }

  function fail(error) {
    if (error.status === 401) return;
    $('#feed-error').textContent = `${t('feed.error')} ${errorText(error)}`;
    $('#feed-error').hidden = false;
  }

  function end() {
    $('#feed-stage').hidden = true;
    const endEl = $('#feed-end');
    render(endEl, items.length === 0 ? html`
      <div class="state state-empty">
        <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
        <p class="empty-title">${t('learn.emptyStack')}</p>
        <p class="muted">${t('learn.emptyStackText')}</p>
      </div>` : html`
      <div class="state state-done" role="status">
        <span class="success-icon celebrate" aria-hidden="true">${icon('check')}</span>
        <h2 class="empty-title" id="feed-end-title">${t('feed.endTitle')}</h2>
        <p class="muted">${t('feed.endText', { seen: items.length, understood: session.reviews, bookmarked: bookmarked.size })}</p>
        ${session.reviews ? summaryMarkup(session) : ''}
        <div class="form-actions">
          <button type="button" class="btn btn-secondary" id="feed-again">${t('feed.again')}</button>
          <a class="btn btn-primary" href="${backUrl}" id="feed-back">${t(stackId ? 'learn.toStack' : 'learn.toDashboard')}</a>
        </div>
      </div>`);
    endEl.hidden = false;
    endEl.querySelector('#feed-again')?.addEventListener('click', () => { position = 0; show({ focus: true }); });
    endEl.querySelector('#feed-back, a')?.focus();
  }

  // --- gestures: pointer events cover touch, pen and a dragging mouse ------------------------
  let start = null;
  cardEl.addEventListener('pointerdown', (event) => {
    if (event.button !== 0) return;
    start = { x: event.clientX, y: event.clientY, id: event.pointerId };
    cardEl.setPointerCapture?.(event.pointerId);
  });
  cardEl.addEventListener('pointermove', (event) => {
    if (!start || event.pointerId !== start.id) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    cardEl.style.setProperty('--dx', `${dx}px`);
    cardEl.style.setProperty('--dy', `${dy}px`);
    cardEl.classList.add('is-dragging');
  });
  const release = (event) => {
    if (!start || event.pointerId !== start.id) return;
    const dx = event.clientX - start.x;
    const dy = event.clientY - start.y;
    start = null;
    cardEl.classList.remove('is-dragging');
    cardEl.style.removeProperty('--dx');
    cardEl.style.removeProperty('--dy');
    if (event.type === 'pointercancel') return;
    const ax = Math.abs(dx);
    const ay = Math.abs(dy);
    if (Math.max(ax, ay) < TAP_PX) { flip(); return; }
    if (ax >= ay && ax >= SWIPE_PX) { if (dx > 0) understood(); else bookmark(); return; }
    if (ay > ax && ay >= SWIPE_PX) go(dy < 0 ? 1 : -1);
  };
  cardEl.addEventListener('pointerup', release);
  cardEl.addEventListener('pointercancel', release);

  $('#feed-prev').addEventListener('click', () => go(-1));
  $('#feed-next').addEventListener('click', () => go(1));
  $('#feed-flip').addEventListener('click', flip);
  $('#feed-good').addEventListener('click', understood);
  $('#feed-bookmark').addEventListener('click', bookmark);

  const onKey = (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || $('#feed-stage').hidden) return;
    if (event.target.closest('input, textarea, select, [contenteditable]')) return;
    const onButton = event.target.closest('button, a');
    const actions = {
      ArrowDown: () => go(1), ArrowUp: () => go(-1), ArrowRight: understood, ArrowLeft: bookmark,
      j: () => go(1), k: () => go(-1),
    };
    if (actions[event.key]) { event.preventDefault(); actions[event.key](); return; }
    if ((event.key === ' ' || event.key === 'Enter') && !onButton) { event.preventDefault(); flip(); }
  };
  document.addEventListener('keydown', onKey);

  show({ focus: true });
  return () => document.removeEventListener('keydown', onKey);
}

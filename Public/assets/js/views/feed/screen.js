// The swipe feed's screen (views/feed.js): the one owner of its state (the cards loaded so far in
// feed order, where the learner is, what was bookmarked, whether the card shows its answer) over a
// StudySession in mode `feed`. Its listeners end with the clean-up `start()` returns.

import { render } from '../../html.js';
import { t } from '../../i18n.js';
import { api } from '../../api/client.js';
import { announce, errorText } from '../../ui.js';
import { knewItRating } from '../../study-session.js';
import { cardPlainText, setCardText } from '../../rich-text.js';
import { endMarkup, pageMarkup } from './markup.js';
import { followGestures } from './gestures.js';

const PAGE = 50;

export class FeedScreen {
  /** The cards loaded so far, in feed order: {card, stack, understood}. */
  items = [];
  cursor = { stack: 0, page: 0, done: false };
  position = 0;
  /** Cards bookmarked in this feed. */
  bookmarked = new Set();
  busy = false;
  flipped = false;
  #controller = new AbortController();

  constructor(root, session, stackId) {
    this.root = root;
    this.session = session;
    this.stackId = stackId;
    this.backUrl = stackId ? `/app/stacks/${stackId}` : '/app/stacks';
    const available = session.stacks.reduce((sum, s) => sum + s.cardCount, 0);
    this.total = session.size ? Math.min(session.size, available) : available;
  }

  $(selector) { return this.root.querySelector(selector); }

  /** Loads the next page of cards (of the next stack when one is through). */
  async loadMore() {
    const { cursor, items, session } = this;
    while (!cursor.done && items.length < this.total) {
      const stack = session.stacks[cursor.stack];
      if (!stack) { cursor.done = true; break; }
      cursor.page += 1;
      const page = await session.cardsPage(stack, { page: cursor.page, perPage: PAGE });
      for (const card of page.items) if (items.length < this.total) items.push({ card, stack, understood: false });
      if (cursor.page * PAGE >= page.total) { cursor.stack += 1; cursor.page = 0; }
      if (page.items.length) return;
    }
  }

  /** Draws the page and shows the first card; returns the clean-up. */
  start() {
    render(this.root, pageMarkup({ stackId: this.stackId, stack: this.session.stacks[0], backUrl: this.backUrl }));
    this.cardEl = this.$('#feed-card');
    this.live = this.$('#announce');
    const { signal } = this.#controller;
    followGestures(this.cardEl, {
      tap: () => this.flip(), right: () => this.understood(), left: () => this.bookmark(),
      up: () => this.go(1), down: () => this.go(-1),
    }, signal);
    const buttons = { '#feed-prev': () => this.go(-1), '#feed-next': () => this.go(1), '#feed-flip': () => this.flip(), '#feed-good': () => this.understood(), '#feed-bookmark': () => this.bookmark() };
    for (const [selector, action] of Object.entries(buttons)) this.$(selector).addEventListener('click', action, { signal });
    this.$('#feed-end').addEventListener('click', (event) => {
      if (event.target.closest('#feed-again')) { this.position = 0; this.show({ focus: true }); }
    }, { signal });
    document.addEventListener('keydown', (event) => this.#onKey(event), { signal });
    this.show({ focus: true });
    return () => this.#controller.abort();
  }

  get current() { return this.items[this.position]; }

  updateStatus() {
    this.$('#position').textContent = t('learn.position', { n: Math.min(this.position + 1, this.total), total: this.total });
    this.$('#counter').textContent = t('feed.counts', { understood: this.session.reviews, bookmarked: this.bookmarked.size });
  }

  show({ focus = false } = {}) {
    const item = this.current;
    if (!item) { this.end(); return; }
    const { session } = this;
    this.flipped = false;
    session.shown();
    this.$('#feed-stage').hidden = false;
    this.$('#feed-end').hidden = true;
    this.$('#from-stack').hidden = !session.allStacks;
    this.$('#from-stack').textContent = session.allStacks ? t('study.fromStack', { name: item.stack.name }) : '';
    this.$('#face-label').textContent = t('learn.question');
    setCardText(this.$('#feed-question'), item.card, 'question');
    setCardText(this.$('#feed-answer'), item.card, 'answer');
    this.$('#feed-answer').hidden = true;
    this.cardEl.classList.remove('is-flipped');
    this.cardEl.setAttribute('aria-label', `${t('learn.question')}: ${cardPlainText(item.card, 'question')}`);
    this.markers();
    this.$('#feed-prev').disabled = this.position === 0;
    this.updateStatus();
    if (focus) this.cardEl.focus({ preventScroll: true });
  }

  markers() {
    const item = this.current;
    this.$('#mark-bookmark').hidden = !item.card.bookmarked;
    this.$('#mark-understood').hidden = !item.understood;
    this.$('#feed-bookmark').setAttribute('aria-pressed', String(Boolean(item.card.bookmarked)));
    this.$('#feed-bookmark span').textContent = t(item.card.bookmarked ? 'feed.unbookmark' : 'feed.bookmark');
    this.$('#feed-good').disabled = item.understood;
  }

  flip() {
    const item = this.current;
    if (!item) return;
    this.flipped = !this.flipped;
    this.$('#feed-answer').hidden = !this.flipped;
    this.$('#face-label').textContent = t(this.flipped ? 'learn.answer' : 'learn.question');
    this.cardEl.classList.toggle('is-flipped', this.flipped);
    if (this.flipped) announce(this.live, `${t('learn.answer')}: ${cardPlainText(item.card, 'answer')}`);
  }

  async go(step) {
    if (this.busy) return;
    const target = this.position + step;
    if (target < 0) return;
    if (target >= this.items.length && !this.cursor.done && this.items.length < this.total) {
      this.busy = true;
      try { await this.loadMore(); } catch (error) { this.fail(error); return; } finally { this.busy = false; }
    }
    this.position = Math.min(target, this.items.length);
    this.cardEl.classList.add(step > 0 ? 'enter-up' : 'enter-down');
    setTimeout(() => this.cardEl.classList.remove('enter-up', 'enter-down'), 250);
    this.show({ focus: true });
  }

  /** "Verstanden": rated "I knew it" in its stack's scheduler, then the next card. */
  async understood() {
    const item = this.current;
    if (this.busy || !item || item.understood) return;
    this.busy = true;
    this.$('#feed-error').hidden = true;
    try {
      await this.session.rateCard(item.stack, item.card, knewItRating(item.stack));
      item.understood = true;
      this.markers();
      announce(this.live, t('feed.understoodDone'));
      this.busy = false;
      await this.go(1);
    } catch (error) {
      this.fail(error);
    } finally {
      this.busy = false;
    }
  }

  async bookmark() {
    const item = this.current;
    if (this.busy || !item) return;
    this.busy = true;
    this.$('#feed-error').hidden = true;
    const on = !item.card.bookmarked;
    try {
      const updated = await api.setBookmark(item.stack.id, item.card.id, on);
      item.card.bookmarked = updated ? updated.bookmarked : on;
      if (on) this.bookmarked.add(item.card.id); else this.bookmarked.delete(item.card.id);
      this.markers();
      this.updateStatus();
      announce(this.live, t(on ? 'feed.bookmarkedDone' : 'feed.unbookmarkedDone'));
    } catch (error) {
      this.fail(error);
    } finally {
      this.busy = false;
    }
  }

  fail(error) {
    if (error.status === 401) return;
    this.$('#feed-error').textContent = `${t('feed.error')} ${errorText(error)}`;
    this.$('#feed-error').hidden = false;
  }

  end() {
    this.$('#feed-stage').hidden = true;
    const endEl = this.$('#feed-end');
    render(endEl, endMarkup({
      seen: this.items.length, session: this.session, bookmarked: this.bookmarked.size, stackId: this.stackId, backUrl: this.backUrl,
    }));
    endEl.hidden = false;
    endEl.querySelector('#feed-back, a')?.focus();
  }

  #onKey(event) {
    if (event.altKey || event.ctrlKey || event.metaKey || this.$('#feed-stage').hidden) return;
    if (event.target.closest('input, textarea, select, [contenteditable]')) return;
    const onButton = event.target.closest('button, a');
    const actions = {
      ArrowDown: () => this.go(1), ArrowUp: () => this.go(-1), ArrowRight: () => this.understood(), ArrowLeft: () => this.bookmark(),
      j: () => this.go(1), k: () => this.go(-1),
    };
    if (actions[event.key]) { event.preventDefault(); actions[event.key](); return; }
    if ((event.key === ' ' || event.key === 'Enter') && !onButton) { event.preventDefault(); this.flip(); }
  }
}

// The match game's screen (views/match.js): the one owner of its state (the tiles, the tile
// chosen, the pairs left, the clock). Its clock, timers and listeners end with `stop()`.

import { render } from '../../html.js';
import { t } from '../../i18n.js';
import { api } from '../../api/client.js';
import { announce, errorText } from '../../ui.js';
import { cardPlainText, setCardLine } from '../../rich-text.js';
import { boardMarkup, formatClock, introMarkup, pageMarkup, resultMarkup, tooFewMarkup } from './markup.js';

const PAIRS = 6;
/** The API's lower bound for a game's time. */
const MIN_MS = 500;

const normal = (text) => text.trim().toLowerCase().replace(/\s+/g, ' ');

/** A side's text on a tile: a rich card's words (an image as its description), never its source. */
const tileText = (card, field) => (card.format === 'markdown' ? cardPlainText(card, field) : card.shown?.[field] ?? card[field]);

/** Fisher–Yates shuffle (in place; returns the array). */
function shuffle(list) {
  for (let i = list.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** Up to six cards whose questions and answers are all different, so every pair is unambiguous. */
function pickPairs(cards, count = PAIRS) {
  const questions = new Set();
  const answers = new Set();
  const picked = [];
  for (const card of shuffle([...cards])) {
    const q = normal(tileText(card, 'question'));
    const a = normal(tileText(card, 'answer'));
    if (!q || !a || questions.has(q) || answers.has(a)) continue;
    questions.add(q);
    answers.add(a);
    picked.push(card);
    if (picked.length === count) break;
  }
  return picked;
}

export class MatchGame {
  #controller = new AbortController();
  #clock = null;
  #timeouts = new Set();

  constructor(root, { stackId, stack, pool }) {
    this.root = root;
    this.stackId = stackId;
    this.stack = stack;
    this.pool = pool;
    this.backUrl = `/app/stacks/${stackId}`;
  }

  /** Draws the page and the intro; returns the clean-up. */
  start() {
    render(this.root, pageMarkup(this.stack, this.backUrl));
    this.body = this.root.querySelector('#match-body');
    this.live = this.root.querySelector('#announce');
    this.body.addEventListener('click', (event) => this.#onClick(event), { signal: this.#controller.signal });
    this.intro();
    return () => this.stop();
  }

  stop() {
    this.#stopClock();
    for (const id of this.#timeouts) clearTimeout(id);
    this.#timeouts.clear();
    this.#controller.abort();
  }

  #stopClock() {
    if (this.#clock) clearInterval(this.#clock);
    this.#clock = null;
  }

  #later(run, ms) {
    const id = setTimeout(() => { this.#timeouts.delete(id); run(); }, ms);
    this.#timeouts.add(id);
  }

  #onClick(event) {
    if (event.target.closest('#match-start')) this.play();
    else if (event.target.closest('#match-again')) this.intro();
    else {
      const tile = event.target.closest('.tile');
      if (tile && !tile.disabled && !tile.classList.contains('is-wrong')) this.pick(Number(tile.dataset.index));
    }
  }

  intro() {
    this.pairs = pickPairs(this.pool);
    if (this.pairs.length < 2) { render(this.body, tooFewMarkup(this.backUrl)); return; }
    const best = this.stack.matchBestMs ? t('match.best', { time: formatClock(this.stack.matchBestMs) }) : t('match.noBest');
    render(this.body, introMarkup(this.pairs.length, best));
    this.body.querySelector('#match-start').focus();
  }

  play() {
    this.tiles = shuffle(this.pairs.flatMap((card, pair) => [
      { pair, side: 'q', card, field: 'question', text: tileText(card, 'question') },
      { pair, side: 'a', card, field: 'answer', text: tileText(card, 'answer') },
    ]));
    render(this.body, boardMarkup(this.tiles));
    this.buttons = [...this.body.querySelectorAll('#board .tile')];
    // A rich card's tile shows it rendered (formulas inline); the label keeps its plain words.
    this.buttons.forEach((button, i) => {
      const tile = this.tiles[i];
      if (tile.card.format === 'markdown') setCardLine(button.querySelector('.tile-text'), tile.card, tile.field);
    });
    this.selected = null;
    this.left = this.pairs.length;
    this.startedAt = performance.now();
    const clock = this.root.querySelector('#clock');
    this.#clock = setInterval(() => { clock.textContent = formatClock(performance.now() - this.startedAt); }, 100);
    announce(this.live, t('match.started', { count: this.left }));
    this.buttons[0].focus();
  }

  /** A tile chosen: the first of a pair, another of the same side, or the second (a hit or a miss). */
  pick(index) {
    const button = this.buttons[index];
    if (this.selected === null || this.selected === index) {
      this.selected = this.selected === index ? null : index;
      button.setAttribute('aria-pressed', String(this.selected === index));
      return;
    }
    const first = this.tiles[this.selected];
    const second = this.tiles[index];
    const firstButton = this.buttons[this.selected];
    firstButton.setAttribute('aria-pressed', 'false');
    if (first.side === second.side) {
      // Another tile of the same side: that one is the choice now.
      this.selected = index;
      button.setAttribute('aria-pressed', 'true');
      return;
    }
    this.selected = null;
    if (first.pair === second.pair) this.#hit(firstButton, button);
    else {
      for (const b of [firstButton, button]) b.classList.add('is-wrong');
      announce(this.live, t('match.miss'));
      this.#later(() => { for (const b of [firstButton, button]) b.classList.remove('is-wrong'); }, 450);
    }
  }

  #hit(...pair) {
    for (const b of pair) { b.classList.add('is-matched'); b.disabled = true; }
    this.left -= 1;
    if (this.left === 0) { this.finish(); return; }
    announce(this.live, t('match.hit', { count: this.left }));
    this.buttons.find((b) => !b.disabled)?.focus();
  }

  /** The game's time, and the stack's best time kept by the server. */
  async finish() {
    const ms = Math.max(MIN_MS, Math.round(performance.now() - this.startedAt));
    this.#stopClock();
    this.root.querySelector('#clock').textContent = formatClock(ms);
    render(this.body, resultMarkup(ms, this.pairs.length, this.backUrl));
    this.body.querySelector('#match-again').focus();
    const best = this.body.querySelector('#match-best');
    try {
      const result = await api.recordMatch(this.stackId, ms);
      this.stack.matchBestMs = result.bestMs;
      best.textContent = result.newBest ? t('match.newBest') : t('match.best', { time: formatClock(result.bestMs) });
      best.classList.toggle('new-best', result.newBest);
    } catch (error) {
      if (error.status !== 401) best.textContent = `${t('match.saveError')} ${errorText(error)}`;
    }
  }
}

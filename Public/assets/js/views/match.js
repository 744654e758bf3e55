// The match game (/app/stacks/{id}/match): six questions and their answers as tiles, paired
// against the clock. Practice only: it writes no review; the stack keeps its best time
// (POST …/match). Tiles are buttons, so the game works by keyboard and screen reader too.

import { html, render } from '../html.js';
import { locale, t } from '../i18n.js';
import { api } from '../api/client.js';
import { announce, errorText, errorView, icon, loadingView, retryable, stackBreadcrumb } from '../ui.js';
import { cardPlainText, setCardLine } from '../rich-text.js';

const PAIRS = 6;
const PAGE = 200;
/** The API's lower bound for a game's time. */
const MIN_MS = 500;

/** "0:23,4": minutes, seconds and tenths in the user's locale. */
export function formatClock(ms) {
  const tenths = Math.floor(ms / 100);
  const minutes = Math.floor(tenths / 600);
  const seconds = (tenths % 600) / 10;
  const s = new Intl.NumberFormat(locale(), { minimumIntegerDigits: 2, minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(seconds);
  return `${minutes}:${s}`;
}

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
export function pickPairs(cards, count = PAIRS) {
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

export const mount = retryable(mountGame);

async function mountGame(root, ctx, reload) {
  const stackId = ctx.params.stackId;
  const backUrl = `/app/stacks/${stackId}`;
  render(root, loadingView(t('loading')));
  let stack;
  let pool;
  try {
    stack = await api.stack(stackId);
    // A random page of up to 200 cards: big stacks vary from game to game.
    const pages = Math.max(1, Math.ceil(stack.cardCount / PAGE));
    const page = await api.cards(stackId, { page: 1 + Math.floor(Math.random() * pages), perPage: PAGE });
    pool = page.items;
  } catch (error) {
    if (error.status === 401) return undefined;
    render(root, errorView(errorText(error)));
    root.querySelector('[data-retry]').addEventListener('click', reload);
    return undefined;
  }

  const screen = new MatchScreen(root, { stackId, stack, pool, backUrl });
  screen.intro();
  return () => screen.stop();
}

const pageTemplate = (stack, backUrl) => html`
  <section class="page match">
    ${stackBreadcrumb(stack, backUrl, t('study.mode.match'))}
    <header class="page-header">
      <div>
        <h1>${t('match.title')}</h1>
        <p class="muted">${t('match.lead')}</p>
      </div>
      <p class="match-clock" aria-hidden="true"><span id="clock">0:00,0</span></p>
    </header>
    <p class="visually-hidden" id="announce" role="status" aria-live="polite"></p>
    <div id="match-body"></div>
  </section>`;

const tooFew = (backUrl) => html`
  <div class="state state-empty">
    <span class="empty-icon" aria-hidden="true">${icon('grid')}</span>
    <p class="empty-title">${t('match.tooFew')}</p>
    <p class="muted">${t('match.tooFewText')}</p>
    <a class="btn btn-primary" href="${backUrl}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>
  </div>`;

const introTemplate = (count, best) => html`
  <div class="panel match-intro">
    <p>${t('match.rules', { count })}</p>
    <p class="muted" id="best">${best}</p>
    <p class="small muted">${t('match.practice')}</p>
    <button type="button" class="btn btn-primary btn-lg" id="match-start">${icon('play')}<span>${t('match.start')}</span></button>
  </div>`;

const boardTemplate = (tiles) => html`
  <div class="match-board" id="board" role="group" aria-label="${t('match.board')}">
    ${tiles.map((tile, i) => html`
      <button type="button" class="tile tile-${tile.side}" data-index="${i}" aria-pressed="false"
        aria-label="${t(tile.side === 'q' ? 'match.question' : 'match.answer')}: ${tile.text}">
        <span class="tile-text">${tile.text}</span>
      </button>`)}
  </div>
  <p class="kbd-help small muted">${t('match.keys')}</p>`;

const resultTemplate = (ms, count, backUrl) => html`
  <div class="panel match-result state-done" role="status">
    <span class="success-icon celebrate" aria-hidden="true">${icon('check')}</span>
    <h2 id="match-time">${t('match.done', { time: formatClock(ms), count })}</h2>
    <p class="muted" id="match-best">${t('match.saving')}</p>
    <div class="form-actions">
      <a class="btn btn-secondary" href="${backUrl}">${t('learn.toStack')}</a>
      <button type="button" class="btn btn-primary" id="match-again">${t('match.again')}</button>
    </div>
  </div>`;

/** One visit of the game: owns the stack, the cards it draws from, the game under way and its
 * clock (stop ends it). */
class MatchScreen {
  constructor(root, { stackId, stack, pool, backUrl }) {
    Object.assign(this, { root, stackId, stack, pool, backUrl });
    this.timer = null;
    this.startedAt = 0;
    render(root, pageTemplate(stack, backUrl));
    this.body = root.querySelector('#match-body');
    this.live = root.querySelector('#announce');
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  bestText() {
    return this.stack.matchBestMs ? t('match.best', { time: formatClock(this.stack.matchBestMs) }) : t('match.noBest');
  }

  intro() {
    const pairs = pickPairs(this.pool);
    if (pairs.length < 2) {
      render(this.body, tooFew(this.backUrl));
      return;
    }
    render(this.body, introTemplate(pairs.length, this.bestText()));
    const button = this.body.querySelector('#match-start');
    button.addEventListener('click', () => this.play(pairs));
    button.focus();
  }

  play(pairs) {
    const tiles = shuffle(pairs.flatMap((card, pair) => [
      { pair, side: 'q', card, field: 'question', text: tileText(card, 'question') },
      { pair, side: 'a', card, field: 'answer', text: tileText(card, 'answer') },
    ]));
    render(this.body, boardTemplate(tiles));
    const board = this.body.querySelector('#board');
    const buttons = [...board.querySelectorAll('.tile')];
    // A rich card's tile shows it rendered (formulas inline); the label keeps its plain words.
    buttons.forEach((button, i) => {
      if (tiles[i].card.format === 'markdown') setCardLine(button.querySelector('.tile-text'), tiles[i].card, tiles[i].field);
    });
    this.game = { pairs, tiles, buttons, selected: null, left: pairs.length };
    this.startedAt = performance.now();
    const clock = this.root.querySelector('#clock');
    this.timer = setInterval(() => { clock.textContent = formatClock(performance.now() - this.startedAt); }, 100);
    announce(this.live, t('match.started', { count: pairs.length }));
    buttons[0].focus();
    board.addEventListener('click', (event) => {
      const button = event.target.closest('.tile');
      if (button && !button.disabled && !button.classList.contains('is-wrong')) this.pick(button);
    });
  }

  /** A tile chosen: the first of a pair, another of the same side, or the second (hit or miss). */
  pick(button) {
    const game = this.game;
    const index = Number(button.dataset.index);
    if (game.selected === null || game.selected === index) {
      game.selected = game.selected === index ? null : index;
      button.setAttribute('aria-pressed', String(game.selected === index));
      return;
    }
    const first = game.tiles[game.selected];
    const second = game.tiles[index];
    const firstButton = game.buttons[game.selected];
    firstButton.setAttribute('aria-pressed', 'false');
    if (first.side === second.side) {
      // Another tile of the same side: that one is the choice now.
      game.selected = index;
      button.setAttribute('aria-pressed', 'true');
      return;
    }
    game.selected = null;
    if (first.pair === second.pair) this.hit([firstButton, button]);
    else this.miss([firstButton, button]);
  }

  hit(pair) {
    const game = this.game;
    for (const b of pair) { b.classList.add('is-matched'); b.disabled = true; }
    game.left -= 1;
    if (game.left === 0) { this.finish(game.pairs.length); return; }
    announce(this.live, t('match.hit', { count: game.left }));
    game.buttons.find((b) => !b.disabled)?.focus();
  }

  miss(pair) {
    for (const b of pair) b.classList.add('is-wrong');
    announce(this.live, t('match.miss'));
    setTimeout(() => { for (const b of pair) b.classList.remove('is-wrong'); }, 450);
  }

  async finish(count) {
    const { body, stack, backUrl } = this;
    const ms = Math.max(MIN_MS, Math.round(performance.now() - this.startedAt));
    this.stop();
    this.root.querySelector('#clock').textContent = formatClock(ms);
    render(body, resultTemplate(ms, count, backUrl));
    body.querySelector('#match-again').addEventListener('click', () => this.intro());
    body.querySelector('#match-again').focus();
    const best = body.querySelector('#match-best');
    try {
      const result = await api.recordMatch(this.stackId, ms);
      stack.matchBestMs = result.bestMs;
      best.textContent = result.newBest ? t('match.newBest') : t('match.best', { time: formatClock(result.bestMs) });
      best.classList.toggle('new-best', result.newBest);
    } catch (error) {
      if (error.status === 401) return;
      best.textContent = `${t('match.saveError')} ${errorText(error)}`;
    }
  }
}

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

  let timer = null;
  let startedAt = 0;
  const stop = () => { if (timer) clearInterval(timer); timer = null; };

  render(root, html`
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
    </section>`);
  const body = root.querySelector('#match-body');
  const live = root.querySelector('#announce');
  const bestText = () => (stack.matchBestMs ? t('match.best', { time: formatClock(stack.matchBestMs) }) : t('match.noBest'));

  function intro() {
    const pairs = pickPairs(pool);
    if (pairs.length < 2) {
      render(body, html`
        <div class="state state-empty">
          <span class="empty-icon" aria-hidden="true">${icon('grid')}</span>
          <p class="empty-title">${t('match.tooFew')}</p>
          <p class="muted">${t('match.tooFewText')}</p>
          <a class="btn btn-primary" href="${backUrl}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>
        </div>`);
      return;
    }
    render(body, html`
      <div class="panel match-intro">
        <p>${t('match.rules', { count: pairs.length })}</p>
        <p class="muted" id="best">${bestText()}</p>
        <p class="small muted">${t('match.practice')}</p>
        <button type="button" class="btn btn-primary btn-lg" id="match-start">${icon('play')}<span>${t('match.start')}</span></button>
      </div>`);
    const button = body.querySelector('#match-start');
    button.addEventListener('click', () => play(pairs));
    button.focus();
  }

  function play(pairs) {
    const tiles = shuffle(pairs.flatMap((card, pair) => [
      { pair, side: 'q', card, field: 'question', text: tileText(card, 'question') },
      { pair, side: 'a', card, field: 'answer', text: tileText(card, 'answer') },
    ]));
    render(body, html`
      <div class="match-board" id="board" role="group" aria-label="${t('match.board')}">
        ${tiles.map((tile, i) => html`
          <button type="button" class="tile tile-${tile.side}" data-index="${i}" aria-pressed="false"
            aria-label="${t(tile.side === 'q' ? 'match.question' : 'match.answer')}: ${tile.text}">
            <span class="tile-text">${tile.text}</span>
          </button>`)}
      </div>
      <p class="kbd-help small muted">${t('match.keys')}</p>`);
    const board = body.querySelector('#board');
    const buttons = [...board.querySelectorAll('.tile')];
    // A rich card's tile shows it rendered (formulas inline); the label keeps its plain words.
    buttons.forEach((button, i) => {
      if (tiles[i].card.format === 'markdown') setCardLine(button.querySelector('.tile-text'), tiles[i].card, tiles[i].field);
    });
    let selected = null;
    let left = pairs.length;
    startedAt = performance.now();
    const clock = root.querySelector('#clock');
    timer = setInterval(() => { clock.textContent = formatClock(performance.now() - startedAt); }, 100);
    announce(live, t('match.started', { count: left }));
    buttons[0].focus();

    board.addEventListener('click', (event) => {
      const button = event.target.closest('.tile');
      if (!button || button.disabled || button.classList.contains('is-wrong')) return;
      const index = Number(button.dataset.index);
      if (selected === null || selected === index) {
        selected = selected === index ? null : index;
        button.setAttribute('aria-pressed', String(selected === index));
        return;
      }
      const first = tiles[selected];
      const second = tiles[index];
      const firstButton = buttons[selected];
      if (first.side === second.side) {
        // Another tile of the same side: that one is the choice now.
        firstButton.setAttribute('aria-pressed', 'false');
        selected = index;
        button.setAttribute('aria-pressed', 'true');
        return;
      }
      selected = null;
      firstButton.setAttribute('aria-pressed', 'false');
      if (first.pair === second.pair) {
        for (const b of [firstButton, button]) { b.classList.add('is-matched'); b.disabled = true; }
        left -= 1;
        if (left === 0) { finish(pairs.length); return; }
        announce(live, t('match.hit', { count: left }));
        buttons.find((b) => !b.disabled)?.focus();
      } else {
        for (const b of [firstButton, button]) b.classList.add('is-wrong');
        announce(live, t('match.miss'));
        setTimeout(() => { for (const b of [firstButton, button]) b.classList.remove('is-wrong'); }, 450);
      }
    });
  }

  async function finish(count) {
    const ms = Math.max(MIN_MS, Math.round(performance.now() - startedAt));
    stop();
    root.querySelector('#clock').textContent = formatClock(ms);
    render(body, html`
      <div class="panel match-result state-done" role="status">
        <span class="success-icon celebrate" aria-hidden="true">${icon('check')}</span>
        <h2 id="match-time">${t('match.done', { time: formatClock(ms), count })}</h2>
        <p class="muted" id="match-best">${t('match.saving')}</p>
        <div class="form-actions">
          <a class="btn btn-secondary" href="${backUrl}">${t('learn.toStack')}</a>
          <button type="button" class="btn btn-primary" id="match-again">${t('match.again')}</button>
        </div>
      </div>`);
    body.querySelector('#match-again').addEventListener('click', intro);
    body.querySelector('#match-again').focus();
    const best = body.querySelector('#match-best');
    try {
      const result = await api.recordMatch(stackId, ms);
      stack.matchBestMs = result.bestMs;
      best.textContent = result.newBest ? t('match.newBest') : t('match.best', { time: formatClock(result.bestMs) });
      best.classList.toggle('new-best', result.newBest);
    } catch (error) {
      if (error.status === 401) return;
      best.textContent = `${t('match.saveError')} ${errorText(error)}`;
    }
  }

  intro();
  return stop;
}

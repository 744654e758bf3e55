// A study session that rates cards (/app/stacks/{id}/learn, or /app/learn for every stack), in one
// of three modes (`?mode=`): flashcards (reveal, rate), quiz (pick one of up to four answers) or
// write (type the answer; a near miss shows a character diff, an answer far off the learner's and
// the right one one above the other). `?size=` ends the session after that many
// reviews. A flashcards rating answer carries the next card, so it appears without a second
// request. The swipe feed and the match game have their own views (feed.js, match.js).

import { html, render } from '../html.js';
import { formatInterval, formatRelativeDay, t } from '../i18n.js';
import { registerFlipCard } from '../../components/flip-card/flip-card.js';
import { errorText, errorView, fieldError, icon, loadStylesheet, loadingView, retryable, stackBreadcrumb, stacksBreadcrumb, toast } from '../ui.js';
import { StudySession, sessionStacks, sizeFromQuery } from '../study-session.js';
import { summaryMarkup } from '../session-summary.js';
import { answerWords, expectedAnswer, readableText, setCardLine, setRichLine } from '../rich-text.js';

const MODES = ['flashcards', 'quiz', 'write'];
const DIACRITICS = 'fc.ignoreDiacritics';

/** The button text, e.g. "Einfach (10 Minuten)": label from our dictionary (the API's German
 * label as fallback), interval formatted from `intervalSeconds` in the current language. */
function optionParts(option) {
  const key = `learn.rating.${option.rating}`;
  const label = t(key) === key ? option.label : t(key);
  return { label, interval: formatInterval(option.intervalSeconds) };
}

/** A typed answer's diff against the card's: kept runs plain, extra ones struck through, missing
 * ones underlined; screen readers hear what each run is. */
const diffMarkup = (diff) => html`${diff.map((run) => run.kind === 'same'
  ? html`<span class="diff-same">${run.text}</span>`
  : html`<span class="diff-${run.kind}"><span class="visually-hidden">${t(`write.diff.${run.kind}`)}: </span>${run.text}</span>`)}`;

/** A text as compared with a choice's: whitespace runs as one space. */
const spaced = (text) => String(text ?? '').replace(/\s+/g, ' ').trim();

/** Whether `text` (a quiz choice, the checked answer) is the rich `card`'s answer as its words,
 * so the answer can be shown rendered in its place. */
const isAnswerOf = (card, text) => card?.format === 'markdown' && card.kind !== 'trueFalse'
  && spaced(answerWords(card)) === spaced(text);

export const mount = retryable(mountSession);

async function mountSession(root, ctx, reload) {
  const styled = registerFlipCard();
  const stackId = ctx.params.stackId;
  const mode = MODES.includes(ctx.query.get('mode')) ? ctx.query.get('mode') : 'flashcards';
  if (mode === 'write') loadStylesheet('/assets/css/write.css'); // the result's comparison
  const session = await start();
  if (!session) return undefined;
  await styled;

  async function start() {
    render(root, loadingView(t('learn.loading')));
    try {
      const created = new StudySession(await sessionStacks(stackId), { mode, size: sizeFromQuery(ctx.query.get('size')) });
      await created.load();
      return created;
    } catch (error) {
      if (error.status === 401) return null;
      render(root, errorView(errorText(error)));
      root.querySelector('[data-retry]').addEventListener('click', reload);
      return null;
    }
  }

  const single = session.stacks[0];
  const backUrl = stackId ? `/app/stacks/${stackId}` : '/app/stacks';
  const crumb = t(`study.mode.${mode}`);
  let busy = false;
  let answered = null; // quiz/write: the rating to send on "continue" (write) or null
  let lastResult = null; // the last rate answer (its `next` saves a request)

  render(root, html`
    <section class="page learn learn-${mode}">
      ${stackId ? stackBreadcrumb(single, backUrl, crumb) : stacksBreadcrumb(`${t('study.allStacks')}: ${crumb}`)}
      <h1 class="visually-hidden">${crumb}: ${stackId ? single.name : t('study.allStacks')}</h1>
      <div class="learn-status">
        <span class="position" id="position"></span>
        <span class="counter" id="counter" role="status"></span>
        <span class="pill pill-ahead" id="ahead" hidden></span>
        <span class="muted small" id="remaining"></span>
        <button type="button" class="btn btn-ghost btn-sm" id="undo" hidden aria-keyshortcuts="u">${icon('undo')}<span>${t('learn.undo')}</span></button>
      </div>
      <div class="progress" role="progressbar" aria-label="${t('learn.progress')}" aria-valuemin="0" aria-valuemax="100" id="progress">
        <span class="progress-bar" id="progress-bar"></span>
      </div>
      <div id="stage">
        <p class="pill pill-stack" id="from-stack" hidden></p>
        <flip-card id="card"></flip-card>
        <div class="learn-controls">
          <div class="alert alert-error" role="alert" id="rate-error" hidden></div>
          ${mode === 'flashcards' ? html`
            <button type="button" class="btn btn-primary btn-lg" id="reveal">${t('learn.reveal')}</button>
            <div class="ratings" id="ratings" role="group" aria-label="${t('learn.rateLabel')}" hidden></div>` : ''}
          ${mode === 'quiz' ? html`
            <p class="small muted" id="fewer" hidden></p>
            <div class="choices" id="choices" role="group" aria-label="${t('quiz.choicesLabel')}"></div>` : ''}
          ${mode === 'write' ? html`
            <form class="write-form" id="write-form" novalidate>
              <div class="field">
                <label for="answer-input" class="write-label">${t('write.label')}</label>
                <textarea id="answer-input" rows="2" maxlength="20000" autocomplete="off" autocapitalize="off" spellcheck="false"
                  aria-describedby="write-help" data-describedby="write-help"></textarea>
                <p class="small muted" id="write-help">${t('write.help')}</p>
              </div>
              <label class="check-row"><input type="checkbox" id="ignore-diacritics" ${localStorage.getItem(DIACRITICS) === '1' ? 'checked' : ''}> <span>${t('write.ignoreDiacritics')}</span></label>
              <div class="form-actions">
                <button type="button" class="btn btn-secondary" id="dont-know">${t('write.dontKnow')}</button>
                <button type="submit" class="btn btn-primary" id="check">${t('write.check')}</button>
              </div>
            </form>
            <div class="write-result" id="write-result" hidden></div>` : ''}
          ${mode !== 'flashcards' ? html`
            <p class="feedback ${mode === 'write' ? 'visually-hidden' : ''}" id="feedback" role="status" aria-live="polite"></p>
            <div class="form-actions" id="after-answer" hidden>
              ${mode === 'write' ? html`<button type="button" class="btn btn-secondary" id="override">${t('write.override')}</button>` : ''}
              <button type="button" class="btn btn-primary btn-lg" id="continue">${t('quiz.continue')}</button>
            </div>` : ''}
          <p class="kbd-help small muted hide-touch" id="keys"></p>
        </div>
      </div>
      <div id="finished" hidden></div>
    </section>
    <dialog class="dialog" id="done" aria-labelledby="done-title" aria-describedby="done-text">
      <div class="dialog-body">
        <div class="dialog-icon celebrate" aria-hidden="true">${icon('check')}</div>
        <h2 class="dialog-title" id="done-title">${t('learn.doneTitle')}</h2>
        <p class="muted" id="done-text"></p>
        <div id="summary"></div>
        <p class="small muted" id="done-next"></p>
        <button type="button" class="btn btn-primary btn-block" id="more" hidden></button>
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
          <button type="button" class="btn btn-secondary" id="done-undo" hidden>${icon('undo')}<span>${t('learn.undo')}</span></button>
          <a class="btn btn-primary" href="${stackId ? backUrl : '/app/stacks'}" id="to-dashboard" autofocus>${t(stackId ? 'learn.toStack' : 'learn.toDashboard')}</a>
        </div>
      </div>
    </dialog>`);

  const $ = (sel) => root.querySelector(sel);
  const card = $('#card');
  const rateError = $('#rate-error');
  const dialog = $('#done');
  const stage = $('#stage');
  const finished = $('#finished');
  const undoButton = $('#undo');

  function updateStatus() {
    const total = session.total;
    const position = session.card ? session.reviews + 1 : session.reviews;
    $('#position').textContent = total ? t('learn.position', { n: Math.min(position, total), total }) : '';
    $('#counter').textContent = t('learn.studied', {
      cards: t('learn.cards', { count: session.cards }), reviews: t('learn.reviews', { count: session.reviews }),
    });
    $('#remaining').textContent = session.card ? t('learn.remaining', { count: session.dueLeft }) : '';
    const percent = total === 0 ? 100 : Math.round((session.reviews / total) * 100);
    $('#progress-bar').style.width = `${percent}%`;
    $('#progress').setAttribute('aria-valuenow', String(percent));
    $('#ahead').hidden = session.daysAhead === 0;
    $('#ahead').textContent = t('learn.aheadBadge', { count: session.daysAhead });
    undoButton.hidden = !session.canUndo;
  }

  /** Shows the session's current card (or the summary when there is none). */
  function show() {
    updateStatus();
    rateError.hidden = true;
    answered = null;
    if (!session.card) { finish(); return; }
    stage.hidden = false;
    finished.hidden = true;
    const stack = session.stack;
    const from = $('#from-stack');
    from.hidden = !session.allStacks;
    from.textContent = session.allStacks ? t('study.fromStack', { name: stack.name }) : '';
    card.hintsEnabled = stack.hintsEnabled !== false;
    card.show(session.card);
    if (mode === 'flashcards') showFlashcard();
    if (mode === 'quiz') showQuiz();
    if (mode === 'write') showWrite();
  }

  // --- flashcards ---------------------------------------------------------------------------
  function showFlashcard() {
    const options = session.item.state.options;
    const ratings = $('#ratings');
    $('#reveal').hidden = false;
    ratings.hidden = true;
    ratings.dataset.count = String(options.length);
    render(ratings, html`${options.map((option, i) => html`
      <button type="button" class="btn btn-rate" data-index="${i}" data-color="${option.color}">
        <span class="rate-label">${optionParts(option).label}</span> <span class="rate-interval">(${optionParts(option).interval})</span><kbd aria-hidden="true">${i + 1}</kbd>
      </button>`)}`);
    $('#keys').textContent = t('learn.keys', { keys: `1–${options.length}` });
  }

  function reveal() {
    if (mode !== 'flashcards' || card.revealed || !session.card) return;
    const hadFocus = document.activeElement === $('#reveal');
    card.reveal();
    $('#reveal').hidden = true;
    $('#ratings').hidden = false;
    if (hadFocus) $('#ratings button')?.focus();
  }

  // --- quiz ---------------------------------------------------------------------------------
  /** A choice as shown: a true/false card's two words in the app's language. */
  function choiceText(choice, i) {
    return session.item.state.card?.kind === 'trueFalse' ? t(i === 0 ? 'kind.true' : 'kind.false') : choice;
  }

  function showQuiz() {
    const { choices: sent, fewerChoices } = session.item.state;
    const choices = sent.map(choiceText);
    const fewer = $('#fewer');
    // A true/false or multiple-choice card has the options it was made with: nothing is missing.
    const own = ['trueFalse', 'multipleChoice'].includes(session.item.state.card?.kind);
    fewer.hidden = !fewerChoices || own;
    fewer.textContent = fewerChoices ? t('quiz.fewer', { count: choices.length }) : '';
    render($('#choices'), html`${choices.map((choice, i) => html`
      <button type="button" class="btn choice" data-index="${i}"><kbd aria-hidden="true">${i + 1}</kbd><span class="choice-text">${choice}</span></button>`)}`);
    renderChoices(session.item.state);
    $('#feedback').textContent = '';
    $('#after-answer').hidden = true;
    $('#keys').textContent = t('quiz.keys', { keys: `1–${choices.length}` });
  }

  /** Renders the choices that are rich cards' answers (formulas typeset inline): the HTML the
   * server (or the local copy, offline) sends in `renderedChoices`, and the asked card's own
   * answer from the card. The others stay plain words. */
  function renderChoices(state) {
    const { card: asked } = state;
    if (asked?.kind === 'trueFalse') return;
    root.querySelectorAll('#choices .choice-text').forEach((span, i) => {
      const rendered = state.renderedChoices?.[i];
      if (typeof rendered === 'string' && rendered) setRichLine(span, rendered);
      else if (i === state.correctIndex && isAnswerOf(asked, state.choices[i])) setCardLine(span, asked, 'answer', { images: 'none' });
    });
  }

  /** A choice as words for labels and announcements (a rendered formula as readable symbols). */
  const choiceWords = (i, fallback) => {
    const span = root.querySelectorAll('#choices .choice-text')[i];
    return span?.classList.contains('rich-line') ? readableText(span) : fallback;
  };

  async function choose(index) {
    const { correctIndex, ratingIfRight, ratingIfWrong } = session.item.state;
    const choices = session.item.state.choices.map(choiceText);
    if (busy || answered || index < 0 || index >= choices.length) return;
    const right = index === correctIndex;
    const buttons = [...root.querySelectorAll('#choices .choice')];
    buttons.forEach((b, i) => {
      b.disabled = true;
      if (i === correctIndex) b.classList.add('is-correct');
      if (i === index && !right) b.classList.add('is-wrong');
      if (i === correctIndex || i === index) {
        b.setAttribute('aria-label', `${choiceWords(i, choices[i])}: ${t(i === correctIndex ? 'quiz.correctMark' : 'quiz.wrongMark')}`);
        // A mark besides the colour: a tick for the answer, circling arrows ("comes again") for a miss.
        const mark = document.createElement('span');
        mark.className = 'choice-mark';
        render(mark, icon(i === correctIndex ? 'check' : 'flip'));
        b.append(mark);
      }
    });
    $('#feedback').textContent = right ? t('quiz.right') : t('quiz.wrong', { answer: choiceWords(correctIndex, choices[correctIndex]) });
    $('#feedback').dataset.kind = right ? 'right' : 'wrong';
    answered = right ? ratingIfRight : ratingIfWrong;
    // The answer counts at once (first try); "continue" only moves on.
    const ok = await send(answered);
    if (ok) {
      $('#after-answer').hidden = false;
      $('#continue').focus();
      $('#keys').textContent = t('quiz.keysContinue');
    }
  }

  // --- write --------------------------------------------------------------------------------
  function showWrite() {
    const input = $('#answer-input');
    $('#write-form').hidden = false;
    $('#write-result').hidden = true;
    $('#after-answer').hidden = true;
    $('#feedback').textContent = '';
    input.value = '';
    fieldError(input, '');
    input.disabled = false;
    $('#keys').textContent = t('write.keys');
    input.focus({ preventScroll: true });
  }

  async function check(typed) {
    if (busy || answered) return;
    const input = $('#answer-input');
    if (typed !== null && !typed.trim()) {
      fieldError(input, t('write.empty'));
      input.focus();
      return;
    }
    fieldError(input, '');
    busy = true;
    const button = $('#check');
    button.disabled = true;
    try {
      const ignore = $('#ignore-diacritics').checked;
      localStorage.setItem(DIACRITICS, ignore ? '1' : '0');
      const { state } = session.item;
      const result = typed === null
        ? { verdict: 'wrong', expected: expectedAnswer(state.card), diff: null, rating: null, ratingIfRight: null }
        : await session.check(typed, ignore);
      const wrongRating = session.stack.scheduler === 'ladder' ? 'hard' : 'again';
      answered = result.rating || wrongRating;
      card.reveal();
      $('#write-form').hidden = true;
      const out = $('#write-result');
      // A near miss (the check's "close": within its typo tolerance) shows the character diff;
      // an answer far off shows the learner's and the right one one above the other.
      const near = result.verdict === 'close' && Array.isArray(result.diff);
      const farOff = result.verdict === 'wrong' && typed !== null;
      render(out, html`
        <p class="verdict verdict-${result.verdict}">${icon(result.verdict === 'wrong' ? 'flip' : 'check')}<span>${t(`write.verdict.${result.verdict}`)}</span></p>
        ${near ? html`
          <p class="diff-label small muted">${t('write.yourAnswer')}</p>
          <p class="diff" lang="">${diffMarkup(result.diff)}</p>
          <p class="small muted">${t('write.expected')}</p>
          <p class="expected" id="write-expected">${result.expected}</p>` : farOff ? html`
          <dl class="write-compare" id="write-compare">
            <div class="compare-row compare-yours">
              <dt>${icon('flip')}<span>${t('write.compare.yours')}</span></dt>
              <dd class="compare-text" lang="">${typed.trim()}</dd>
            </div>
            <div class="compare-row compare-right">
              <dt>${icon('check')}<span>${t('write.compare.right')}</span></dt>
              <dd class="compare-text expected" id="write-expected">${result.expected}</dd>
            </div>
          </dl>` : html`
          <p class="small muted">${t('write.expected')}</p>
          <p class="expected" id="write-expected">${result.expected}</p>`}`);
      // A rich card's answer rendered (formulas typeset) where its words were checked.
      if (isAnswerOf(state.card, result.expected)) setCardLine(out.querySelector('#write-expected'), state.card, 'answer', { images: 'none' });
      out.hidden = false;
      $('#feedback').textContent = t(`write.verdict.${result.verdict}`);
      $('#override').hidden = result.verdict === 'correct' || typed === null;
      out.dataset.rightRating = result.ratingIfRight || '';
      $('#after-answer').hidden = false;
      $('#continue').focus();
      $('#keys').textContent = t('write.keysContinue');
    } catch (error) {
      if (error.status === 401) return;
      rateError.textContent = `${t('write.checkError')} ${errorText(error)}`;
      rateError.hidden = false;
    } finally {
      busy = false;
      button.disabled = false;
    }
  }

  // --- rating (every mode) ------------------------------------------------------------------
  /** Sends `rating` for the card on screen; resolves true when it was stored. */
  async function send(rating) {
    busy = true;
    rateError.hidden = true;
    const group = root.querySelector('#ratings, #choices, #after-answer');
    group?.setAttribute('aria-busy', 'true');
    try {
      const result = await session.rate(rating);
      lastResult = result;
      updateStatus();
      return true;
    } catch (error) {
      if (error.status === 401) return false;
      rateError.textContent = `${t('learn.error')} ${errorText(error)}`;
      rateError.hidden = false;
      if (mode === 'quiz') {
        // Let the learner try again: nothing was stored.
        answered = null;
        showQuiz();
      }
      return false;
    } finally {
      busy = false;
      group?.removeAttribute('aria-busy');
    }
  }


  /** Rates (flashcards) and moves on to the next card. */
  async function rate(index) {
    const option = session.item?.state.options[index];
    if (busy || !card.revealed || !option) return;
    const ratings = $('#ratings');
    for (const b of ratings.querySelectorAll('button')) b.disabled = true;
    if (await send(option.rating)) await moveOn(lastResult.next);
    else for (const b of ratings.querySelectorAll('button')) b.disabled = false;
  }

  /** After an answer: the next card (a rate answer's `next` saves a request). */
  async function moveOn(next) {
    busy = true;
    try {
      await session.advance(next);
      show();
      if (session.card) (mode === 'write' ? $('#answer-input') : card).focus({ preventScroll: true });
    } catch (error) {
      if (error.status === 401) return;
      rateError.textContent = errorText(error);
      rateError.hidden = false;
    } finally {
      busy = false;
    }
  }

  async function continueAfterAnswer(rating) {
    if (busy || !answered) return;
    if (mode === 'write') {
      if (!(await send(rating || answered))) return;
    }
    await moveOn(mode === 'write' ? lastResult.next : null);
  }

  async function undo() {
    if (busy || !session.canUndo) return;
    busy = true;
    undoButton.disabled = true;
    try {
      await session.undo();
      if (dialog.open) dialog.close();
      show();
      card.focus({ preventScroll: true });
      toast(t('learn.undone'));
    } catch (error) {
      if (error.status === 401) return;
      rateError.textContent = `${t('learn.undoError')} ${errorText(error)}`;
      rateError.hidden = false;
    } finally {
      busy = false;
      undoButton.disabled = false;
    }
  }

  // --- the end of the session ---------------------------------------------------------------
  function finish() {
    stage.hidden = true;
    const emptyStack = stackId && single.cardCount === 0 && session.reviews === 0 && !session.nextDueAt;
    if (emptyStack) {
      render(finished, html`
        <div class="state state-empty">
          <span class="empty-icon" aria-hidden="true">${icon('cards')}</span>
          <p class="empty-title">${t('learn.emptyStack')}</p>
          <p class="muted">${t('learn.emptyStackText')}</p>
          <a class="btn btn-primary" href="${backUrl}/cards/new">${icon('plus')}<span>${t('detail.createCard')}</span></a>
        </div>`);
      finished.hidden = false;
      return;
    }
    const byDays = session.daysAhead > 0 ? t('learn.doneAheadText', { count: session.daysAhead }) : t('learn.doneText');
    const bySize = session.full && session.dueLeft > 0;
    $('#done-title').textContent = t(session.reviews ? (bySize ? 'learn.doneSizeTitle' : 'learn.doneTitle') : 'learn.nothingTitle');
    $('#done-text').textContent = bySize ? t('learn.doneSizeText', { count: session.dueLeft }) : byDays;
    render($('#summary'), session.reviews ? summaryMarkup(session) : html``);
    const nextText = !bySize && session.nextDueAt ? t('learn.nextDue', { date: formatRelativeDay(session.nextDueAt) }) : '';
    $('#done-next').textContent = nextText;
    const more = $('#more');
    more.hidden = !bySize;
    // One primary action: going on when there is more, else back to the stack.
    $('#to-dashboard').classList.toggle('btn-primary', !bySize);
    $('#to-dashboard').classList.toggle('btn-secondary', bySize);
    more.textContent = bySize ? t('learn.more', { count: Math.min(session.baseSize, session.dueLeft) }) : '';
    $('#ahead-form').hidden = bySize;
    $('#done-undo').hidden = !session.canUndo;
    render(finished, html`
      <div class="state state-done">
        <span class="success-icon" aria-hidden="true">${icon('check')}</span>
        <p class="empty-title">${$('#done-title').textContent}</p>
        <p class="muted">${[session.reviews ? t('learn.studied', {
          cards: t('learn.cards', { count: session.cards }), reviews: t('learn.reviews', { count: session.reviews }),
        }) : '', nextText].filter(Boolean).join(' · ')}</p>
        <div class="form-actions">
          <a class="btn btn-secondary" href="${stackId ? backUrl : '/app/stacks'}">${t(stackId ? 'learn.toStack' : 'learn.toDashboard')}</a>
          <button type="button" class="btn btn-primary" id="reopen">${t('learn.summary')}</button>
        </div>
      </div>`);
    finished.hidden = false;
    finished.querySelector('#reopen').addEventListener('click', () => dialog.showModal());
    if (!dialog.open) dialog.showModal();
    if (bySize) more.focus();
  }

  $('#more').addEventListener('click', async () => {
    dialog.close();
    busy = true;
    try { await session.more(); } catch (error) { if (error.status !== 401) rateError.textContent = errorText(error); }
    busy = false;
    show();
  });

  $('#done-undo').addEventListener('click', undo);

  $('#ahead-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const input = $('#ahead-days');
    const days = Number(input.value);
    const invalid = !Number.isInteger(days) || days < 1 || days > 3650;
    $('#ahead-error').textContent = t('learn.aheadInvalid');
    $('#ahead-error').hidden = !invalid;
    input.toggleAttribute('aria-invalid', invalid);
    if (invalid) { input.focus(); return; }
    const button = event.target.querySelector('button');
    button.disabled = true;
    try {
      await session.learnAhead(days);
      dialog.close();
      show();
      if (session.card) card.focus({ preventScroll: true });
    } catch (error) {
      if (error.status !== 401) {
        $('#ahead-error').textContent = errorText(error);
        $('#ahead-error').hidden = false;
      }
    } finally {
      button.disabled = false;
    }
  });

  // --- events -------------------------------------------------------------------------------
  undoButton.addEventListener('click', undo);
  card.addEventListener('reveal-request', reveal);
  if (mode === 'flashcards') {
    $('#reveal').addEventListener('click', reveal);
    $('#ratings').addEventListener('click', (event) => {
      const button = event.target.closest('button[data-index]');
      if (button) rate(Number(button.dataset.index));
    });
  }
  if (mode === 'quiz') {
    $('#choices').addEventListener('click', (event) => {
      const button = event.target.closest('button[data-index]');
      if (button) choose(Number(button.dataset.index));
    });
  }
  if (mode === 'write') {
    const input = $('#answer-input');
    $('#write-form').addEventListener('submit', (event) => { event.preventDefault(); check(input.value); });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) { event.preventDefault(); check(input.value); }
    });
    input.addEventListener('input', () => fieldError(input, ''));
    $('#dont-know').addEventListener('click', () => check(null));
    $('#override').addEventListener('click', () => continueAfterAnswer($('#write-result').dataset.rightRating));
  }
  if (mode !== 'flashcards') $('#continue').addEventListener('click', () => continueAfterAnswer());

  const onKey = (event) => {
    if (dialog.open || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest('input, textarea, select, [contenteditable]')) return;
    if ((event.key === 'u' || event.key === 'U') && session.canUndo) {
      event.preventDefault();
      undo();
      return;
    }
    if (mode === 'flashcards') {
      if ((event.key === ' ' || event.key === 'Enter') && !card.revealed && session.card) {
        if (event.target.closest('a, button:not(#reveal)')) return;
        event.preventDefault();
        reveal();
      } else if (/^[1-9]$/.test(event.key) && card.revealed) {
        event.preventDefault();
        rate(Number(event.key) - 1);
      }
    } else if (mode === 'quiz' && /^[1-9]$/.test(event.key) && !answered) {
      event.preventDefault();
      choose(Number(event.key) - 1);
    }
  };
  document.addEventListener('keydown', onKey);

  show();
  return () => {
    document.removeEventListener('keydown', onKey);
    if (dialog.open) dialog.close();
  };
}

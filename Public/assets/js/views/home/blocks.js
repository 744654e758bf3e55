// The home screen's parts as markup (views/home.js, home/screen.js): the page, today's goal,
// topics, level and streak, challenges and the mystery box, the calendar with rest days,
// achievements, the level-up celebration and the in-app reminder note. Rendering only.

import { html, render } from '../../html.js';
import { formatNumber, locale, t } from '../../i18n.js';
import { icon, ring } from '../../ui.js';
import { clockNow, partOfDay, userKey } from '../../progress-ui.js';

const ACHIEVEMENTS = ['firstSteps', 'scholar', 'dedicated', 'explorer', 'perfectionist', 'unstoppable', 'marathon', 'centurion'];
const CHALLENGE_ICONS = { cardsStudied: 'cards', perfectRun: 'target', newTopic: 'sparkles' };

/** A learner day 'YYYY-MM-DD' as a UTC date (calendar arithmetic without zones). */
const dayDate = (day) => { const [y, m, d] = day.split('-').map(Number); return new Date(Date.UTC(y, m - 1, d)); };
const dayString = (date) => date.toISOString().slice(0, 10);
const formatDay = (day, options) => new Intl.DateTimeFormat(locale(), { ...options, timeZone: 'UTC' }).format(dayDate(day));

/**
 * The calendar's weeks: five rows Monday … Sunday ending with the week of `today`; each day with
 * its kind (active, rest, frozen, missed, or none; `future` after today).
 */
export function calendarWeeks(today, entries, restDays = []) {
  const kinds = new Map(entries.map((e) => [e.date, e.kind]));
  for (const day of restDays) if (!kinds.has(day)) kinds.set(day, 'rest');
  const end = dayDate(today);
  const monday = new Date(end);
  monday.setUTCDate(end.getUTCDate() - ((end.getUTCDay() + 6) % 7) - 28);
  const weeks = [];
  for (let w = 0; w < 5; w += 1) {
    const week = [];
    for (let d = 0; d < 7; d += 1) {
      const date = new Date(monday);
      date.setUTCDate(monday.getUTCDate() + w * 7 + d);
      const day = dayString(date);
      const kind = kinds.get(day) ?? (date > end ? 'future' : 'none');
      week.push({ day, kind: kind === 'rest' || date <= end ? kind : 'future', isToday: day === today });
    }
    weeks.push(week);
  }
  return weeks;
}


/** The home page: greeting, today's goal, topics, and each game element once earned (`shown`). */
export function homeMarkup({ progress, settings, stacks, shown, focus, user }) {
  return html`
    <section class="page page-narrow home ${focus ? 'is-focus' : ''}">
      <header class="home-head">
        <h1 id="greeting">${t(`home.greeting.${partOfDay()}`, { name: user.name || '' })}</h1>
        <p class="muted">${formatDay(progress.today, { weekday: 'long', day: 'numeric', month: 'long' })}</p>
      </header>
      <div id="celebration" role="status" aria-live="polite"></div>
      <div id="reminder-note"></div>
      ${todayPanel(progress, stacks)}
      ${focus ? '' : topicsPanel(settings, stacks)}
      ${shown.level || shown.streak || shown.freezes || shown.longest || shown.rest ? progressPanel(progress, shown) : ''}
      ${shown.daily ? dailyPanels(progress) : ''}
      ${shown.achievements ? html`
        <section class="panel gamified" aria-labelledby="achievements-title">
          <h2 id="achievements-title">${t('home.achievementsTitle')}</h2>
          ${achievementsBlock(progress.achievements)}
        </section>` : ''}
      <p class="home-view small muted" id="home-view">
        <span>${t(focus ? 'home.focusActive' : 'home.focusOffer')}</span>
        <button type="button" class="btn btn-ghost btn-sm" data-action="focus">
          ${icon('leaf')}<span>${t(focus ? 'home.focusOff' : 'home.focusOn')}</span></button>
      </p>
    </section>`;
}

const progressPanel = (progress, shown) => html`
        <section class="panel gamified progress-panel" aria-labelledby="progress-title">
          <div class="panel-title-row">
            <h2 id="progress-title">${t('home.progressTitle')}</h2>
            <a class="link small board-link" href="/app/leaderboard">${icon('trophy')}<span>${t('home.leaderboard')}</span></a>
          </div>
          ${shown.level ? html`<div id="level-box" aria-live="polite">${levelBlock(progress)}</div>` : ''}
          <div id="streak-host">${streakBlock(progress, shown)}</div>
        </section>`;

const dailyPanels = (progress) => html`
        <section class="panel gamified" aria-labelledby="challenges-title">
          <div class="panel-title-row">
            <h2 id="challenges-title">${t('home.challengesTitle')}</h2>
            <span class="small muted">${t('home.challengesLead')}</span>
          </div>
          <ul class="challenges" role="list">${progress.challenges.map(challengeItem)}</ul>
          <div id="box" class="box-area" aria-live="polite">${boxBlock(progress.mysteryBox, progress.challenges)}</div>
        </section>
        <section class="panel gamified" aria-labelledby="calendar-title">
          <div class="panel-title-row">
            <h2 id="calendar-title">${t('home.calendarTitle')}</h2>
          </div>
          <div id="calendar-host">${calendarBlock(progress)}</div>
          <div class="rest-day" id="rest-day">${restBlock(progress)}</div>
        </section>`;

// --- today --------------------------------------------------------------------------------------

/**
 * "Themen für dich": the interests chosen in the onboarding that no stack is named after yet, each
 * a link to a new stack of that name (nothing when there are none).
 */
function topicsPanel(settings, stacks) {
  const names = new Set((stacks ?? []).map((s) => s.name.trim().toLocaleLowerCase()));
  const topics = (settings?.onboarding?.interests ?? []).filter((topic) => !names.has(topic.trim().toLocaleLowerCase()));
  if (!topics.length) return '';
  return html`
    <section class="panel" aria-labelledby="topics-title" id="topics">
      <h2 id="topics-title">${t('home.topicsTitle')}</h2>
      <p class="muted small">${t('home.topicsLead')}</p>
      <ul class="chips" role="list">
        ${topics.map((topic) => html`<li><a class="chip" href="/app/stacks/new?name=${encodeURIComponent(topic)}">${topic}</a></li>`)}
      </ul>
    </section>`;
}

function todayPanel(progress, stacks) {
  const goal = Math.max(1, progress.dailyGoal);
  const cards = progress.cardsToday;
  const reached = cards >= goal;
  const totalCards = stacks ? stacks.reduce((sum, s) => sum + s.cardCount, 0) : null;
  let action;
  if (progress.dueCount > 0) {
    action = html`
      <a class="btn btn-primary btn-lg" href="/app/study" id="start-learning">${icon('play')}<span>${t('home.start')}</span></a>
      <p class="muted small">${t('home.due', { count: progress.dueCount })}</p>`;
  } else if (stacks && stacks.length === 0) {
    action = html`
      <div class="home-empty">
        <p class="empty-title">${t('home.noStacks')}</p>
        <p class="muted">${t('home.noStacksText')}</p>
        <a class="btn btn-primary" href="/app/stacks/new">${icon('plus')}<span>${t('home.createStack')}</span></a>
      </div>`;
  } else if (totalCards === 0) {
    action = html`
      <div class="home-empty">
        <p class="empty-title">${t('home.noCards')}</p>
        <p class="muted">${t('home.noCardsText')}</p>
        <a class="btn btn-secondary" href="/app/stacks">${icon('cards')}<span>${t('home.toLibrary')}</span></a>
      </div>`;
  } else {
    action = html`
      <div class="home-empty" id="all-done">
        <span class="empty-icon" aria-hidden="true">${icon('leaf')}</span>
        <p class="empty-title">${t('home.allDone')}</p>
        <p class="muted">${t('home.allDoneText')}</p>
        <div class="actions">
          <a class="btn btn-secondary" href="/app/stacks">${icon('cards')}<span>${t('home.toLibrary')}</span></a>
          <a class="btn btn-secondary" href="/app/stacks/new">${icon('plus')}<span>${t('home.createStack')}</span></a>
        </div>
      </div>`;
  }
  return html`
    <section class="panel today-panel" aria-labelledby="goal-title">
      <h2 id="goal-title" class="visually-hidden">${t('home.goalTitle')}</h2>
      <div class="goal" id="goal">
        <div class="goal-ring">
          ${ring(cards / goal, { size: 148, stroke: 12, className: 'ring-goal' })}
          <p class="goal-center" aria-hidden="true"><span class="goal-count">${formatNumber(cards)} / ${formatNumber(goal)}</span> <span class="goal-unit">${t('home.cardsUnit', { count: goal })}</span></p>
        </div>
        <p class="visually-hidden" id="goal-summary">${t('home.goalSummary', { cards, goal, count: goal })}</p>
      </div>
      <div class="today-action">
        ${cards > 0 || progress.dueCount > 0 ? html`<p class="goal-caption">${reached ? t('home.goalReached') : t('home.goalCaption', { count: goal - cards })}</p>` : ''}
        ${action}
        ${totalCards ? html`<p class="muted small home-workload" id="home-workload" hidden><a href="/app/stats#workload"></a></p>` : ''}
      </div>
    </section>`;
}

// --- level, streak ------------------------------------------------------------------------------

export function levelBlock(progress) {
  const { level, totalXP, xpIntoLevel, xpForNextLevel } = progress.level;
  const share = xpForNextLevel > 0 ? Math.min(1, xpIntoLevel / xpForNextLevel) : 1;
  return html`
    <div class="level" id="level">
      <span class="level-badge" aria-hidden="true">${formatNumber(level)}</span>
      <div class="level-body">
        <p class="level-title"><strong>${t('home.level', { level })}</strong>
          <span class="muted small">${t('home.totalXp', { xp: totalXP })}${progress.xpToday ? html` · ${t('home.xpToday', { xp: progress.xpToday })}` : ''}</span></p>
        <div class="bar" role="progressbar" aria-label="${t('home.xpBar', { level: level + 1 })}"
          aria-valuemin="0" aria-valuemax="${xpForNextLevel}" aria-valuenow="${xpIntoLevel}"
          aria-valuetext="${t('home.xpOf', { xp: xpIntoLevel, next: xpForNextLevel })}" data-share="${share}">
          <span class="bar-fill"></span>
        </div>
        <p class="small muted">${t('home.xpOf', { xp: xpIntoLevel, next: xpForNextLevel })} · ${t('home.xpLeft', { xp: Math.max(0, xpForNextLevel - xpIntoLevel), level: level + 1 })}</p>
      </div>
    </div>`;
}

/** The streak's calm lines, each once earned (`shown`, see `earned`); nothing when none is. */
export function streakBlock(progress, shown) {
  const s = progress.streak;
  const items = [
    shown.streak ? html`<li>${icon('calendar')}<span>${t('home.streak', { count: s.current })}</span></li>` : '',
    shown.rest ? html`<li>${icon('moon')}<span>${t('home.restToday')}</span></li>` : '',
    shown.freezes ? html`<li title="${t('home.freezeHelp')}">${icon('shield')}<span>${t('home.freezes', { count: s.freezes })}</span></li>` : '',
    shown.longest ? html`<li>${icon('medal')}<span>${t('home.longest', { count: s.longest })}</span></li>` : '',
  ].filter(Boolean);
  return items.length ? html`<ul class="streak" role="list" id="streak">${items}</ul>` : '';
}

// --- challenges, box ----------------------------------------------------------------------------

function challengeItem(c) {
  const share = c.target > 0 ? Math.min(1, c.progress / c.target) : 0;
  return html`
    <li class="challenge ${c.done ? 'is-done' : ''}" data-kind="${c.kind}">
      <span class="challenge-icon" aria-hidden="true">${icon(c.done ? 'check' : CHALLENGE_ICONS[c.kind] || 'target')}</span>
      <div class="challenge-body">
        <p class="challenge-title">${t(`challenge.${c.kind}`, { count: c.target })}</p>
        <div class="bar bar-sm" role="progressbar" aria-label="${t(`challenge.${c.kind}`, { count: c.target })}"
          aria-valuemin="0" aria-valuemax="${c.target}" aria-valuenow="${Math.min(c.progress, c.target)}" data-share="${share}"><span class="bar-fill"></span></div>
      </div>
      <p class="challenge-meta">
        <span class="challenge-count">${c.done ? t('home.challengeDone') : `${formatNumber(Math.min(c.progress, c.target))} / ${formatNumber(c.target)}`}</span>
        <span class="small muted">+${formatNumber(c.xp)} XP</span>
      </p>
    </li>`;
}

export function boxBlock(box, challenges, justOpened = false) {
  if (box.opened) {
    const b = box.opened;
    return html`
      <div class="box-reveal rarity-${b.rarity} ${justOpened ? 'is-new' : ''}" tabindex="-1" id="box-opened">
        <span class="box-icon" aria-hidden="true">${icon('gift')}</span>
        <div>
          <p><strong>${t(justOpened ? 'box.revealed' : 'box.openedToday')}</strong> <span class="rarity">${t(`box.rarity.${b.rarity}`)}</span></p>
          <p class="box-reward">${b.theme ? t('box.theme', { theme: t(`theme.${b.theme}`) }) : t('box.xp', { xp: b.xp ?? 0 })}</p>
        </div>
        ${b.theme ? html`<button type="button" class="btn btn-secondary btn-sm" data-action="use-theme" data-theme="${b.theme}">${t('box.useTheme')}</button>` : ''}
      </div>`;
  }
  if (box.available) {
    return html`
      <button type="button" class="btn btn-primary box-button" data-action="open-box" id="open-box">
        ${icon('gift')}<span>${t('box.open')}</span>
      </button>`;
  }
  const open = challenges.filter((c) => !c.done).length;
  return html`<p class="box-hint small muted">${icon('gift')}<span>${t('box.hint', { count: open })}</span></p>`;
}

// --- calendar, rest days ------------------------------------------------------------------------

export function calendarBlock(progress) {
  const weeks = calendarWeeks(progress.today, progress.calendar || [], progress.restDays || []);
  const weekdays = weeks[0].map((d) => formatDay(d.day, { weekday: 'short' }));
  return html`
    <div class="calendar-wrap" id="calendar">
      <table class="calendar">
        <caption class="visually-hidden">${t('home.calendarCaption')}</caption>
        <thead><tr>${weekdays.map((w) => html`<th scope="col">${w}</th>`)}</tr></thead>
        <tbody>
          ${weeks.map((week) => html`<tr>${week.map((d) => html`
            <td class="cal-${d.kind} ${d.isToday ? 'cal-today' : ''}" data-date="${d.day}" ${d.isToday ? html`aria-current="date"` : ''}>
              <span class="cal-dot" aria-hidden="true">${formatDay(d.day, { day: 'numeric' })}</span>
              <span class="visually-hidden">${formatDay(d.day, { day: 'numeric', month: 'long' })}: ${t(`calendar.${d.kind}`)}</span>
            </td>`)}</tr>`)}
        </tbody>
      </table>
      <ul class="calendar-legend small" role="list" aria-hidden="true">
        ${['active', 'rest', 'frozen', 'none'].map((k) => html`<li><span class="cal-swatch cal-${k}"></span>${t(`calendar.${k}`)}</li>`)}
      </ul>
    </div>`;
}

export function restBlock(progress) {
  const s = progress.streak;
  const canMark = s.restToday || !s.activeToday;
  return html`
    ${canMark ? html`
      <button type="button" class="btn btn-secondary" data-action="rest-day" aria-pressed="${s.restToday ? 'true' : 'false'}">
        ${icon('moon')}<span>${t(s.restToday ? 'home.restUndo' : 'home.restMark')}</span>
      </button>` : ''}
    <p class="small muted">${t(s.restToday ? 'home.restActive' : 'home.restHelp')}</p>
    <p class="visually-hidden" role="status" id="rest-status"></p>`;
}

// --- achievements -------------------------------------------------------------------------------

function achievementsBlock(achievements) {
  const won = achievements.filter((a) => ACHIEVEMENTS.includes(a.kind));
  const left = ACHIEVEMENTS.length - won.length;
  return html`
    ${won.length ? html`
      <ul class="achievements" role="list" id="achievements">
        ${won.map((a) => html`
          <li class="achievement">
            <span class="achievement-icon" aria-hidden="true">${icon('medal')}</span>
            <div>
              <p class="achievement-name">${t(`achievement.${a.kind}`)}</p>
              <p class="small muted">${t(`achievement.${a.kind}.text`)}</p>
            </div>
            <span class="small muted achievement-xp">+${formatNumber(a.xp)} XP</span>
          </li>`)}
      </ul>` : ''}
    ${left > 0 ? html`<p class="small muted">${t('home.achievementsLeft', { count: left })}</p>` : ''}`;
}

// --- level-up, reminder note --------------------------------------------------------------------

export function celebrate(region, level) {
  render(region, html`
    <div class="celebration">
      <span class="celebration-burst" aria-hidden="true">${icon('sparkles')}</span>
      <div>
        <p class="celebration-title">${t('home.levelUp', { level })}</p>
        <p class="small muted">${t('home.levelUpText')}</p>
      </div>
      <button type="button" class="btn btn-ghost btn-icon" data-action="dismiss-celebration" aria-label="${t('home.dismiss')}">${icon('x')}</button>
    </div>`);
}

/**
 * The in-app reminder: reminders on, the reminder time passed today, nothing studied and no rest
 * day. Shown once a day (the day is kept per user when it shows).
 */
export function showReminderNote(host, settings, progress) {
  if (!settings?.remindersEnabled || progress.cardsToday > 0 || progress.streak.restToday) return;
  if (clockNow() < (settings.reminderTime || '18:00')) return;
  const key = userKey('reminderNote');
  if (localStorage.getItem(key) === progress.today) return;
  localStorage.setItem(key, progress.today);
  render(host, html`
    <div class="reminder-note" role="status">
      <span class="reminder-icon" aria-hidden="true">${icon('bell')}</span>
      <div>
        <p class="reminder-title">${t('home.reminderTitle')}</p>
        <p class="small muted">${t('home.reminderText')}</p>
      </div>
      <button type="button" class="btn btn-ghost btn-icon" data-action="dismiss-reminder" aria-label="${t('home.dismiss')}">${icon('x')}</button>
    </div>`);
}

// Onboarding (/app/welcome): after signing up or starting as a guest, and again from the settings.
// Three short screens on what is different here (spaced repetition, cards from your own material,
// no pressure), then the goal, the minutes per day and the interests. Every step can be skipped
// ("Überspringen" marks the onboarding done and goes home); "Fertig" saves the answers with
// `PATCH /me/settings` (the server turns the minutes into the daily goal). Each step is a form, so
// Enter goes on; radios move with the arrow keys; interests are toggle buttons. `?step=questions`
// starts at the goal (changing the answers later), `?next=/app/…` is where it ends.

import { html, render } from '../html.js';
import { currentLanguage, t } from '../i18n.js';
import { loadSettings, saveSettings } from '../account.js';
import { HOME } from '../router.js';
import { errorText, fieldError, icon, setBusy, toast } from '../ui.js';
import { loadProgressAssets, stale } from '../progress-ui.js';

const INTRO = [
  { key: 'repeat', icon: 'flip' },
  { key: 'material', icon: 'sparkles' },
  { key: 'calm', icon: 'leaf' },
];
const PURPOSES = [
  { value: 'exam', icon: 'target' },
  { value: 'language', icon: 'language' },
  { value: 'curiosity', icon: 'bulb' },
  { value: 'work', icon: 'business' },
];
const MINUTES = [5, 10, 15, 20];
const TOPICS = 12;
const MAX_INTERESTS = 12;
const MAX_INTEREST_LENGTH = 40;
const STEPS = INTRO.length + 3;

/** Only same-app paths are accepted as where the onboarding ends. */
function safeNext(query) {
  const next = query.get('next') || '';
  return next.startsWith('/app/') && !next.startsWith('//') && !next.startsWith('/app/welcome') ? next : HOME;
}

export async function mount(root, ctx) {
  const { query, navigate } = ctx;
  await loadProgressAssets();
  const saved = (await loadSettings().catch(() => null))?.onboarding || {};
  if (stale(ctx)) return;
  const screen = new WelcomeScreen(root, {
    answers: {
      purpose: saved.purpose ?? null,
      minutesPerDay: saved.minutesPerDay ?? null,
      interests: [...(saved.interests || [])],
    },
    step: query.get('step') === 'questions' ? INTRO.length : 0,
    end: safeNext(query),
    navigate,
  });
  // The router moves the focus to the first step's heading; "Weiter" is one Tab on.
  screen.show(false);
}

// --- the steps (markup) -----------------------------------------------------------------------

const introStep = (intro) => html`
  <span class="welcome-icon" aria-hidden="true">${icon(intro.icon)}</span>
  <h1 tabindex="-1">${t(`welcome.intro.${intro.key}.title`)}</h1>
  <p class="welcome-lead">${t(`welcome.intro.${intro.key}.text`)}</p>`;

const purposeStep = (answers) => html`
  <h1 tabindex="-1" id="purpose-title">${t('welcome.purposeTitle')}</h1>
  <p class="muted">${t('welcome.purposeLead')}</p>
  <fieldset class="choice-group welcome-choices" aria-labelledby="purpose-title">
    ${PURPOSES.map((p) => html`
      <label class="choice">
        <input type="radio" name="purpose" value="${p.value}" ${answers.purpose === p.value ? 'checked' : ''}>
        <span class="choice-icon" aria-hidden="true">${icon(p.icon)}</span>
        <span><strong>${t(`purpose.${p.value}`)}</strong><span class="small muted">${t(`purpose.${p.value}.help`)}</span></span>
      </label>`)}
  </fieldset>`;

const minutesStep = (answers) => html`
  <h1 tabindex="-1" id="minutes-title">${t('welcome.minutesTitle')}</h1>
  <p class="muted" id="minutes-help">${t('welcome.minutesLead')}</p>
  <fieldset class="minutes" aria-labelledby="minutes-title" aria-describedby="minutes-help">
    ${MINUTES.map((m) => html`
      <label class="minute-option">
        <input type="radio" name="minutes" value="${m}" ${answers.minutesPerDay === m ? 'checked' : ''}>
        <span><strong>${m === 20 ? t('welcome.minutesMax', { count: m }) : t('welcome.minutes', { count: m })}</strong>
        <span class="small muted">${t('welcome.cardsPerDay', { count: m * 2 })}</span></span>
      </label>`)}
  </fieldset>`;

const chipContent = (topic) => html`${icon('check')}<span>${topic}</span>`;

const interestsStep = (answers, topics) => html`
  <h1 tabindex="-1" id="interests-title">${t('welcome.interestsTitle')}</h1>
  <p class="muted" id="interests-help">${t('welcome.interestsLead', { count: MAX_INTERESTS })}</p>
  <div class="chips" role="group" aria-labelledby="interests-title" aria-describedby="interests-help" id="chips">
    ${[...topics, ...answers.interests.filter((i) => !topics.includes(i))].map((topic) => html`
      <button type="button" class="chip" aria-pressed="${answers.interests.includes(topic) ? 'true' : 'false'}" data-topic="${topic}">
        ${chipContent(topic)}
      </button>`)}
  </div>
  <div class="field own-topic">
    <label for="own-topic">${t('welcome.ownTopic')}</label>
    <div class="input-row">
      <input id="own-topic" type="text" maxlength="${MAX_INTEREST_LENGTH}" autocomplete="off" placeholder="${t('welcome.ownTopicPlaceholder')}">
      <button type="button" class="btn btn-secondary" id="add-topic">${icon('plus')}<span>${t('welcome.addTopic')}</span></button>
    </div>
  </div>
  <p class="small muted" id="interest-count" role="status">${t('welcome.chosen', { count: answers.interests.length, max: MAX_INTERESTS })}</p>`;

function stepTemplate(step, answers, topics) {
  const intro = INTRO[step];
  const last = step === STEPS - 1;
  return html`
    <section class="page page-narrow welcome">
      <div class="welcome-top">
        <ol class="dots" aria-label="${t('welcome.progress', { step: step + 1, total: STEPS })}">
          ${Array.from({ length: STEPS }, (_, i) => html`<li class="${i === step ? 'is-current' : i < step ? 'is-done' : ''}" ${i === step ? html`aria-current="step"` : ''}><span class="visually-hidden">${t('welcome.stepOf', { step: i + 1, total: STEPS })}</span></li>`)}
        </ol>
        <button type="button" class="btn btn-ghost btn-sm" data-skip>${t('welcome.skip')}</button>
      </div>
      <form class="panel welcome-card" id="welcome-form" novalidate>
        ${intro ? introStep(intro) : ''}
        ${step === INTRO.length ? purposeStep(answers) : ''}
        ${step === INTRO.length + 1 ? minutesStep(answers) : ''}
        ${last ? interestsStep(answers, topics) : ''}
        <div class="alert alert-error" role="alert" id="welcome-error" tabindex="-1" hidden></div>
        <div class="form-actions welcome-actions">
          ${step > 0 ? html`<button type="button" class="btn btn-secondary" data-back>${icon('back')}<span>${t('back')}</span></button>` : ''}
          <span class="spacer"></span>
          <button type="submit" class="btn btn-primary">${last ? html`${icon('check')}<span>${t('welcome.finish')}</span>` : html`<span>${t('welcome.next')}</span>${icon('chevron')}`}</button>
        </div>
      </form>
    </section>`;
}

/** The onboarding: owns the answers and the step shown; each step is rendered anew. */
class WelcomeScreen {
  constructor(root, { answers, step, end, navigate }) {
    Object.assign(this, { root, answers, step, end, navigate });
    this.topics = Array.from({ length: TOPICS }, (_, i) => t(`welcome.topic.${i + 1}`));
    this.leaving = false;
  }

  get last() { return this.step === STEPS - 1; }

  async finish(skip) {
    if (this.leaving) return;
    this.leaving = true;
    const { root, answers, end, navigate } = this;
    const button = root.querySelector(skip ? '[data-skip]' : 'button[type=submit]');
    setBusy(button, true);
    const onboarding = skip ? { done: true } : { done: true, ...answers };
    try {
      const settings = await saveSettings({ onboarding, ...(skip ? {} : { language: currentLanguage() }) });
      await navigate(end, { replace: true });
      if (!skip && answers.minutesPerDay) toast(t('welcome.goalSet', { count: settings.dailyGoal }));
    } catch (error) {
      this.leaving = false;
      setBusy(button, false);
      if (error.status === 401) return;
      if (skip) { navigate(end, { replace: true }); return; } // skipping never holds anyone up
      const alert = root.querySelector('#welcome-error');
      alert.textContent = errorText(error, 'welcome.saveError');
      alert.hidden = false;
      alert.focus();
    }
  }

  /** Renders the step (`focus`: its heading takes focus). */
  show(focus) {
    const { root, answers } = this;
    render(root, stepTemplate(this.step, answers, this.topics));
    const form = root.querySelector('#welcome-form');
    form.addEventListener('change', (event) => {
      if (event.target.name === 'purpose') answers.purpose = event.target.value;
      if (event.target.name === 'minutes') answers.minutesPerDay = Number(event.target.value);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (this.last) this.finish(false);
      else this.go(1);
    });
    root.querySelector('[data-skip]').addEventListener('click', () => this.finish(true));
    root.querySelector('[data-back]')?.addEventListener('click', () => this.go(-1));
    if (this.last) this.listenInterests();
    if (focus) root.querySelector('h1').focus();
  }

  go(by) {
    this.step += by;
    this.show(true);
  }

  listenInterests() {
    const { root } = this;
    const input = root.querySelector('#own-topic');
    root.querySelector('#chips').addEventListener('click', (event) => {
      const chip = event.target.closest('.chip');
      if (chip) this.toggle(chip);
    });
    root.querySelector('#add-topic').addEventListener('click', () => this.addTopic(input));
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') { event.preventDefault(); this.addTopic(input); }
    });
    this.updateInterests();
  }

  /** The chips off once the interests are full; the count said. */
  updateInterests() {
    const { answers, root } = this;
    const full = answers.interests.length >= MAX_INTERESTS;
    for (const chip of root.querySelectorAll('#chips .chip')) {
      chip.disabled = full && chip.getAttribute('aria-pressed') !== 'true';
    }
    root.querySelector('#interest-count').textContent = t('welcome.chosen', { count: answers.interests.length, max: MAX_INTERESTS });
  }

  toggle(chip) {
    const { answers } = this;
    const topic = chip.dataset.topic;
    const on = chip.getAttribute('aria-pressed') !== 'true';
    chip.setAttribute('aria-pressed', String(on));
    answers.interests = on ? [...answers.interests, topic] : answers.interests.filter((i) => i !== topic);
    this.updateInterests();
  }

  /** The learner's own topic: chosen when it is one of the chips, else added as a chosen chip. */
  addTopic(input) {
    const { answers } = this;
    const chips = this.root.querySelector('#chips');
    const topic = input.value.trim().replace(/\s+/g, ' ');
    if (!topic) { fieldError(input, t('welcome.ownTopicEmpty')); input.focus(); return; }
    if (answers.interests.length >= MAX_INTERESTS) { fieldError(input, t('welcome.tooMany', { count: MAX_INTERESTS })); return; }
    fieldError(input, '');
    const existing = [...chips.querySelectorAll('.chip')].find((c) => c.dataset.topic.toLowerCase() === topic.toLowerCase());
    if (existing) {
      if (existing.getAttribute('aria-pressed') !== 'true') existing.click();
    } else {
      answers.interests = [...answers.interests, topic];
      const chip = document.createElement('button');
      chip.type = 'button';
      chip.className = 'chip';
      chip.dataset.topic = topic;
      chip.setAttribute('aria-pressed', 'true');
      render(chip, chipContent(topic));
      chips.append(chip);
      this.updateInterests();
    }
    input.value = '';
    input.focus();
  }
}

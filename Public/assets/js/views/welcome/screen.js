// The onboarding's screen (views/welcome.js): the one owner of its state (the step, the answers,
// whether it is leaving), drawing each step (welcome/markup.js) and saving at the end. Its
// listeners sit on the step's own elements, drawn anew with each step.

import { render } from '../../html.js';
import { currentLanguage, t } from '../../i18n.js';
import { saveSettings } from '../../account.js';
import { errorText, fieldError, setBusy, toast } from '../../ui.js';
import { MAX_INTERESTS, STEPS, chipMarkup, stepMarkup } from './markup.js';

export class WelcomeScreen {
  leaving = false;

  /** `state`: {answers, topics, step, end (where it ends), navigate}. */
  constructor(root, state) {
    this.root = root;
    Object.assign(this, state);
  }

  $(selector) { return this.root.querySelector(selector); }

  get last() { return this.step === STEPS - 1; }

  show(focus) {
    render(this.root, stepMarkup(this.step, this.answers, this.topics));
    const form = this.$('#welcome-form');
    form.addEventListener('change', (event) => {
      if (event.target.name === 'purpose') this.answers.purpose = event.target.value;
      if (event.target.name === 'minutes') this.answers.minutesPerDay = Number(event.target.value);
    });
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      if (this.last) this.finish(false);
      else this.go(1);
    });
    this.$('[data-skip]').addEventListener('click', () => this.finish(true));
    this.$('[data-back]')?.addEventListener('click', () => this.go(-1));
    if (this.last) this.#wireInterests();
    if (focus) this.$('h1').focus();
  }

  go(by) {
    this.step += by;
    this.show(true);
  }

  /** Saves the answers ("Fertig") or only that the onboarding is done (`skip`), then leaves. */
  async finish(skip) {
    if (this.leaving) return;
    this.leaving = true;
    const button = this.$(skip ? '[data-skip]' : 'button[type=submit]');
    setBusy(button, true);
    const onboarding = skip ? { done: true } : { done: true, ...this.answers };
    try {
      const settings = await saveSettings({ onboarding, ...(skip ? {} : { language: currentLanguage() }) });
      await this.navigate(this.end, { replace: true });
      if (!skip && this.answers.minutesPerDay) toast(t('welcome.goalSet', { count: settings.dailyGoal }));
    } catch (error) {
      this.leaving = false;
      setBusy(button, false);
      if (error.status === 401) return;
      if (skip) { this.navigate(this.end, { replace: true }); return; } // skipping never holds anyone up
      const alert = this.$('#welcome-error');
      alert.textContent = errorText(error, 'welcome.saveError');
      alert.hidden = false;
      alert.focus();
    }
  }

  #wireInterests() {
    const input = this.$('#own-topic');
    this.$('#chips').addEventListener('click', (event) => {
      const chip = event.target.closest('.chip');
      if (chip) this.#toggle(chip);
    });
    this.$('#add-topic').addEventListener('click', () => this.#add(input));
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') { event.preventDefault(); this.#add(input); }
    });
    this.#update();
  }

  #toggle(chip) {
    const topic = chip.dataset.topic;
    const on = chip.getAttribute('aria-pressed') !== 'true';
    chip.setAttribute('aria-pressed', String(on));
    this.answers.interests = on ? [...this.answers.interests, topic] : this.answers.interests.filter((i) => i !== topic);
    this.#update();
  }

  /** The chips' state: none more once twelve are chosen; the count said. */
  #update() {
    const { interests } = this.answers;
    const full = interests.length >= MAX_INTERESTS;
    for (const chip of this.root.querySelectorAll('#chips .chip')) {
      chip.disabled = full && chip.getAttribute('aria-pressed') !== 'true';
    }
    this.$('#interest-count').textContent = t('welcome.chosen', { count: interests.length, max: MAX_INTERESTS });
  }

  /** The learner's own interest: chosen when it is there already, else added as a chosen chip. */
  #add(input) {
    const topic = input.value.trim().replace(/\s+/g, ' ');
    if (!topic) { fieldError(input, t('welcome.ownTopicEmpty')); input.focus(); return; }
    if (this.answers.interests.length >= MAX_INTERESTS) { fieldError(input, t('welcome.tooMany', { count: MAX_INTERESTS })); return; }
    fieldError(input, '');
    const chips = this.$('#chips');
    const existing = [...chips.querySelectorAll('.chip')].find((c) => c.dataset.topic.toLowerCase() === topic.toLowerCase());
    if (existing) {
      if (existing.getAttribute('aria-pressed') !== 'true') this.#toggle(existing);
    } else {
      this.answers.interests = [...this.answers.interests, topic];
      const holder = document.createElement('div');
      render(holder, chipMarkup(topic, true));
      chips.append(holder.firstElementChild);
      this.#update();
    }
    input.value = '';
    input.focus();
  }
}

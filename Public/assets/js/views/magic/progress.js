// The progress area of "Automatisch erstellen" (views/magic.js): what a running job really does
// (its stage, pages or sections counted, drafts found so far), with a bar where the share is known
// and a live region that speaks the state when the stage changes, not every poll.

import { currentLanguage, t } from '../../i18n.js';

/** The live region speaks a running job's state at most this often (stage changes aside). */
const ANNOUNCE_EVERY_MS = 8000;

/** The words and the share done (null: unknown) of a job's `progress`; `modelName` words generating. */
function jobProgress(p, modelName) {
  const stage = p.stage || 'queued';
  const counted = Number(p.total) > 0 && p.current !== null && p.current !== undefined;
  const counts = { current: p.current, total: p.total };
  switch (stage) {
    case 'queued':
      return { stage, text: t('magic.stage.queued'), fraction: null };
    case 'reading':
    case 'recognizing':
      return {
        stage,
        text: counted ? t(`magic.stage.${stage}`, counts) : t(`magic.stage.${stage}Any`),
        fraction: counted ? p.current / p.total : null,
      };
    case 'generating':
      if (counted && p.total > 1) {
        return { stage, text: t('magic.stage.generating', counts), fraction: Math.max(0, p.current - 1) / p.total };
      }
      return { stage, text: modelName ? t('magic.stage.generatingModel', { model: modelName }) : t('magic.stage.generatingAny'), fraction: null };
    case 'saving':
    case 'done':
      return { stage, text: t(`magic.stage.${stage}`), fraction: 1 };
    default:
      return { stage, text: (currentLanguage() === 'de' && p.message) || t('magic.stage.generatingAny'), fraction: null };
  }
}

export class GenerationProgress {
  /** `root`: the page (with #progress-area and #progress-live); `modelName`: the model's, or ''. */
  constructor(root, modelName) {
    const $ = (sel) => root.querySelector(sel);
    this.area = $('#progress-area');
    this.text = $('#progress-text');
    this.track = $('#progress-track');
    this.bar = $('#progress-bar');
    this.found = $('#progress-found');
    this.live = $('#progress-live');
    this.modelName = modelName;
    this.spoken = { key: '', at: 0 };
  }

  /** Speaks `text` when the stage changed (`key`) or enough time has passed: never every poll. */
  speak(key, text, { force = false } = {}) {
    const now = Date.now();
    if (!force && key === this.spoken.key && now - this.spoken.at < ANNOUNCE_EVERY_MS) return;
    this.spoken = { key, at: now };
    this.live.textContent = text;
  }

  setBar(fraction) {
    const known = typeof fraction === 'number' && Number.isFinite(fraction);
    this.bar.classList.toggle('progress-indeterminate', !known);
    if (known) {
      const percent = Math.round(Math.min(1, Math.max(0, fraction)) * 100);
      this.bar.style.width = `${percent}%`;
      this.track.setAttribute('aria-valuemin', '0');
      this.track.setAttribute('aria-valuemax', '100');
      this.track.setAttribute('aria-valuenow', String(percent));
    } else {
      this.bar.style.removeProperty('width');
      for (const a of ['aria-valuemin', 'aria-valuemax', 'aria-valuenow']) this.track.removeAttribute(a);
    }
  }

  show(text, fraction, found, key) {
    this.area.hidden = false;
    this.text.textContent = text;
    this.track.setAttribute('aria-valuetext', text);
    this.setBar(fraction);
    this.found.hidden = !found;
    this.found.textContent = found ? t('magic.found', { count: found }) : '';
    this.speak(key, found ? `${text} ${t('magic.found', { count: found })}` : text);
  }

  /** Words the job's real state. */
  showJob(job) {
    const p = job.progress || {};
    const { stage, text, fraction } = jobProgress(p, this.modelName);
    this.show(text, fraction, p.cardsCreated || 0, stage);
  }

  stop() {
    this.area.hidden = true;
    this.spoken = { key: '', at: 0 };
  }
}

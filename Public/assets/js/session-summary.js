// The figures at the end of a study session: cards and reviews, how often the learner was right,
// and the time spent answering. Calm on purpose: no streak pressure, no red.

import { html } from './html.js';
import { formatNumber, locale, t } from './i18n.js';

/** "4 min 05 s" / "35 s": the time spent answering. */
function formatSpent(ms) {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes
    ? t('summary.minutes', { m: minutes, s: String(seconds % 60).padStart(2, '0') })
    : t('summary.seconds', { s: seconds });
}

/** A share 0…1 as a whole percent in the user's locale. */
const percent = (share) => new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 0 }).format(share);

/** The summary list of `session` (a StudySession), with a word of praise that fits. */
export function summaryMarkup(session) {
  const accuracy = session.accuracy;
  const praise = accuracy === null ? '' : accuracy >= 0.9 ? 'summary.praiseHigh' : accuracy >= 0.6 ? 'summary.praiseMid' : 'summary.praiseLow';
  return html`
    <dl class="summary">
      <div><dt>${t('summary.cards')}</dt><dd id="summary-cards">${formatNumber(session.cards)}</dd></div>
      <div><dt>${t('summary.reviews')}</dt><dd id="summary-reviews">${formatNumber(session.reviews)}</dd></div>
      <div><dt>${t('summary.accuracy')}</dt><dd id="summary-accuracy">${accuracy === null ? '–' : percent(accuracy)}</dd></div>
      <div><dt>${t('summary.time')}</dt><dd id="summary-time">${formatSpent(session.timeMs)}</dd></div>
    </dl>
    ${praise ? html`<p class="praise">${t(praise)}</p>` : ''}`;
}

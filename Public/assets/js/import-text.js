// The wording of a file's problems, shared by the import (views/import.js) and the restore of a
// backup in the settings (backup-panel.js). The strings are the import's (i18n/import.*.js,
// loadStrings('import')).

import { currentLanguage, t } from './i18n.js';

/** The limits the problems name (the API's, docs/import.md; an unpacked Anki collection in MB). */
const LIMITS = {
  front_too_long: 10_000, back_too_long: 20_000, hint_too_long: 2_000, tags_too_long: 1_000, too_many_cards: 200_000,
  package_too_large: 512,
};
/** The codes of a card that breaks a rule (`back_empty`, `front_too_long`, …). */
const CARD_RULE = /^(front|back|hint|tags)_/;

/**
 * A problem {code, line, note, message} in the UI's language ("Zeile 3: Die Rückseite ist leer."); an
 * unknown code shows the server's German message. A backup's problem (`backup`) says where it is only
 * in the server's message ("Stapel 1 („Englisch“): Karte 1: …", or the version it comes from), so
 * German shows that message and English the reason.
 */
export function problemText(problem, { backup = false } = {}) {
  if (backup && problem.message && currentLanguage() === 'de') return problem.message;
  const key = `imp.problem.${problem.code}`;
  const reason = t(key, { limit: LIMITS[problem.code] ?? 0 });
  if (reason === key) return problem.message || t('imp.previewError');
  if (problem.line != null) return t('imp.at.line', { line: String(problem.line) }) + reason;
  if (problem.note != null) return t('imp.at.note', { note: String(problem.note) }) + reason;
  if (backup && CARD_RULE.test(problem.code)) return t('imp.at.backupCard') + reason;
  return reason;
}

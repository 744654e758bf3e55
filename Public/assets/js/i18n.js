// Language, strings and locale-aware formatting. German is the default; English when the
// browser prefers it or the user picks it. The choice is remembered in localStorage.

const KEY = 'fc.lang';
export const LANGUAGES = ['de', 'en'];
let lang = 'de';
let dict = {};
/** Extra dictionaries loaded by the screens that need them (`loadStrings`), by name. */
const extras = new Set();

/** The language to use: the remembered choice, else the browser's first de/en preference. */
export function detectLanguage() {
  const saved = localStorage.getItem(KEY);
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || 'de']) {
    const base = String(tag).toLowerCase().slice(0, 2);
    if (LANGUAGES.includes(base)) return base;
  }
  return 'de';
}

/** Loads the dictionary of `code` (only that one is downloaded) and makes it current. */
export async function loadLanguage(code = detectLanguage()) {
  const next = LANGUAGES.includes(code) ? code : 'de';
  const [main, ...more] = await Promise.all([
    import(`/assets/i18n/${next}.js`),
    ...[...extras].map((name) => import(`/assets/i18n/${name}.${next}.js`)),
  ]);
  lang = next;
  dict = Object.assign({}, main.default, ...more.map((m) => m.default));
  document.documentElement.lang = lang;
  return lang;
}

/**
 * Adds strings the first screen does not need (`more`: `/assets/i18n/more.de.js` with home,
 * onboarding, settings, leaderboard, guest dialogs, the stack form's icons), so the first load
 * stays small. Kept across language switches.
 */
export async function loadStrings(name) {
  if (extras.has(name)) return;
  const more = (await import(`/assets/i18n/${name}.${lang}.js`)).default;
  extras.add(name);
  Object.assign(dict, more);
}

/** Remembers a language choice. */
export function rememberLanguage(code) {
  localStorage.setItem(KEY, code);
}

/** The current language code. */
export const currentLanguage = () => lang;

/** Locale for Intl: the browser's own when it speaks the current language (de-AT, en-GB …). */
export function locale() {
  const match = (navigator.languages || []).find((tag) => tag.toLowerCase().startsWith(lang));
  return match || (lang === 'de' ? 'de-DE' : 'en-US');
}

/**
 * Looks up a string and fills `{name}` placeholders. Entries that are objects are plural forms
 * keyed by Intl.PluralRules categories and chosen by `params.count`.
 */
export function t(key, params = {}) {
  let entry = dict[key];
  if (entry === undefined) return key;
  if (typeof entry === 'object') {
    const category = new Intl.PluralRules(locale()).select(params.count ?? 0);
    entry = entry[category] ?? entry.other;
  }
  return entry.replace(/\{(\w+)\}/g, (_, name) => {
    const value = params[name];
    return typeof value === 'number' ? formatNumber(value) : (value ?? '');
  });
}

/** A number in the user's locale; `digits`: at most that many decimals (default: Intl's 3). */
export const formatNumber = (n, digits) => new Intl.NumberFormat(locale(),
  digits === undefined ? {} : { maximumFractionDigits: digits }).format(n);

/** A share 0 … 1 as a whole percentage in the user's locale ("85 %", "85%"). */
export const formatPercent = (share) => new Intl.NumberFormat(locale(), { style: 'percent', maximumFractionDigits: 0 }).format(share);

/** The server counts due cards up to this many (`dueCount`); that many means "at least". */
export const DUE_COUNT_LIMIT = 1000;

/** A due count for `t(…, { count })`: "1.000+" when it is a lower bound (at the limit), else the number. */
export const dueCountValue = (n, atLeast = n >= DUE_COUNT_LIMIT) => (atLeast ? `${formatNumber(n)}+` : n);

/** Date and time in the user's locale and time zone. */
/** A learner day 'YYYY-MM-DD' as text ("12. März", "Mar 12"); the date is a calendar day, no zone. */
export function formatDay(date, options = { day: 'numeric', month: 'long' }) {
  const [y, m, d] = date.split('-').map(Number);
  return new Intl.DateTimeFormat(locale(), { ...options, timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d));
}

export function formatDateTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '–';
  return new Intl.DateTimeFormat(locale(), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** "heute, 14:30" / "morgen, 09:00" / a full date for anything further away. */
export function formatRelativeDay(iso, now = new Date()) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '–';
  const startOfDay = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
  const days = Math.round((startOfDay(date) - startOfDay(now)) / 86_400_000);
  const time = new Intl.DateTimeFormat(locale(), { timeStyle: 'short' }).format(date);
  if (days >= -1 && days <= 1) {
    const word = new Intl.RelativeTimeFormat(locale(), { numeric: 'auto' }).format(days, 'day');
    return `${word}, ${time}`;
  }
  return formatDateTime(iso);
}

/**
 * An interval like "10 Minuten" / "10 minutes" in the current language, computed from
 * `intervalSeconds` the way the server words its German `intervalText`.
 */
export function formatInterval(seconds, now = new Date()) {
  const s = Math.max(0, Math.round(seconds));
  if (s >= 86_400) {
    // Days count calendar days, as the server does: due in 7.5 days may mean "in 8 days".
    const startOfDay = (d) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
    const due = new Date(now.getTime() + s * 1000);
    return unitFormat(Math.max(1, Math.round((startOfDay(due) - startOfDay(now)) / 86_400_000)), 'day');
  }
  // Below a day: rounded in the largest unit reached (330 s → 6 minutes; 600 s → 10 minutes).
  if (s >= 3_600) return unitFormat(Math.round(s / 3_600), 'hour');
  if (s >= 60) return unitFormat(Math.round(s / 60), 'minute');
  return unitFormat(Math.max(1, s), 'second');
}

function unitFormat(value, unit) {
  return new Intl.NumberFormat(locale(), { style: 'unit', unit, unitDisplay: 'long' }).format(value);
}

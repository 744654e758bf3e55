// The only way the web app talks to the server: JSON over /api/v1 with a bearer token.
// A 401 anywhere (except signing in) ends the session and sends the user to the login page,
// which returns them to where they were afterwards.

const BASE = '/api/v1';
const TOKEN = 'fc.token';
const USER = 'fc.user';

/** An error answer from the API (or the network), with the API's stable `code`. */
export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null, body = null) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
    this.body = body; // the decoded answer (fields besides `code`)
  }
}

/** Whether an error carries `code`, however the server cases it (`not_a_guest`, `notAGuest`). */
export function hasCode(error, code) {
  const norm = (c) => String(c ?? '').replace(/_/g, '').toLowerCase();
  return Boolean(error?.code) && norm(error.code) === norm(code);
}

let onUnauthorized = () => {};

/** Installs what happens on a 401 (the app shell redirects to the login page). */
export function setUnauthorizedHandler(handler) {
  onUnauthorized = handler;
}

export const session = {
  /** The bearer token, or null when signed out. localStorage is readable by this origin only. */
  token: () => localStorage.getItem(TOKEN),
  /** The signed-in user as stored at login ({id, name, mail, timeZone, isGuest}). */
  user() {
    try { return JSON.parse(localStorage.getItem(USER)) || null; } catch { return null; }
  },
  save(auth) {
    localStorage.setItem(TOKEN, auth.token);
    localStorage.setItem(USER, JSON.stringify(auth.user));
  },
  /** Keeps a changed user (a new name or time zone) with the same token. */
  saveUser(user) {
    localStorage.setItem(USER, JSON.stringify(user));
  },
  clear() {
    localStorage.removeItem(TOKEN);
    localStorage.removeItem(USER);
  },
};

/** After this, a study request counts as unreachable (the session goes on offline). */
export const STUDY_TIMEOUT_MS = 5000;

/**
 * Sends one request; resolves with the decoded JSON (or null for 204), rejects with ApiError.
 * `expire: false` keeps the session on a 401 (signing out with a token that is already refused);
 * `raw: true` resolves with the Response itself (a file to download, an event stream: `accept`
 * names what it asks for; an error answer is JSON all the same); `timeout` (ms): then
 * ApiError(0, 'timeout'), as for a broken connection.
 */
export async function request(method, path, body, {
  auth = true, signal, expire = true, raw = false, timeout = 0, accept = 'application/json',
} = {}) {
  const headers = { Accept: accept };
  const isForm = body instanceof FormData; // multipart uploads: the browser sets the boundary
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const token = session.token();
  if (auth && token) headers.Authorization = `Bearer ${token}`;
  let timer;
  let late = false;
  if (timeout) {
    const controller = new AbortController();
    signal?.addEventListener('abort', () => controller.abort(), { once: true });
    if (signal?.aborted) controller.abort();
    timer = setTimeout(() => { late = true; controller.abort(); }, timeout);
    signal = controller.signal;
  }
  let response;
  let text;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
    if (response.status === 204) return null;
    if (raw && response.ok) return response;
    text = await response.text();
  } catch (error) {
    if (late) throw new ApiError(0, 'timeout', 'timeout');
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', error.message);
  } finally {
    clearTimeout(timer);
  }
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    const error = new ApiError(
      response.status,
      data?.code ?? null,
      data?.message ?? null,
      Number(response.headers.get('Retry-After')) || null,
      data,
    );
    if (response.status === 401 && auth && expire) {
      session.clear();
      onUnauthorized(error);
    }
    throw error;
  }
  return data;
}

/** Encodes one path segment or query value. */
export const enc = encodeURIComponent;

/** Card image `id` as a Blob, with the session's token or a share link's (`share`, no session
 * sent); cacheable, and a refusal never ends the session. */
export async function imageBlob(id, share) {
  const token = session.token();
  const response = await fetch(`${BASE}/images/${enc(id)}${share ? `?share=${enc(share)}` : ''}`,
    { headers: !share && token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok) throw new ApiError(response.status);
  return response.blob();
}

const STUDY = { timeout: STUDY_TIMEOUT_MS };

/** Typed wrappers, one per /api/v1 route the web app uses (see docs/api.md). */
export const api = {
  signup: (name, mail, password, timeZone) =>
    request('POST', '/auth/signup', { name, mail, password, timeZone }, { auth: false }),
  login: (mail, password) => request('POST', '/auth/login', { mail, password }, { auth: false }),
  me: () => request('GET', '/me'),
  guest: (timeZone, language) => request('POST', '/auth/guest', { timeZone, language }, { auth: false }),
  /** Turns a guest into a full account (a new AuthResponse); everything stays. */
  upgrade: (name, mail, password) => request('POST', '/auth/upgrade', { name, mail, password }),
  logout: () => request('POST', '/auth/logout', undefined, { expire: false }),
  updateMe: (changes) => request('PATCH', '/me', changes),
  changePassword: (currentPassword, newPassword) =>
    request('POST', '/me/password', { currentPassword, newPassword }),
  deleteAccount: (password) => request('DELETE', '/me', { password: password ?? '' }),
  settings: (opts) => request('GET', '/me/settings', undefined, opts),
  updateSettings: (changes) => request('PATCH', '/me/settings', changes),
  progress: (opts) => request('GET', '/me/progress', undefined, opts),
  setRestDay: (date, on) => request(on ? 'PUT' : 'DELETE', `/me/rest-days/${enc(date)}`),
  openMysteryBox: () => request('POST', '/me/mystery-box'),
  leaderboard: (metric, opts) => request('GET', `/leaderboards/daily?metric=${enc(metric)}`, undefined, opts),
  pushKey: () => request('GET', '/push/key', undefined, { auth: false }),
  addPushSubscription: (subscription) => request('POST', '/me/push-subscriptions', subscription),
  removePushSubscription: (endpoint) => request('DELETE', '/me/push-subscriptions', { endpoint }),
  /** Personal access tokens (the settings' "KI-Assistenten und Zugangstokens"), newest first. */
  tokens: (opts) => request('GET', '/me/tokens', undefined, opts),
  /** A new token: `{token, secret}`, the secret this once; `expiresInDays` null: it never expires. */
  createToken: (name, scopes, expiresInDays) => request('POST', '/me/tokens', { name, scopes, expiresInDays }),
  revokeToken: (id) => request('DELETE', `/me/tokens/${enc(id)}`),
  /** One page of what a token did: `{items: [{at, action, via, counts}], page, perPage, total}`. */
  tokenActivity: (id, page, perPage, opts) =>
    request('GET', `/me/tokens/${enc(id)}/activity?page=${page}&perPage=${perPage}`, undefined, opts),
  /** The OAuth client asking for access (the consent page): `{name, redirectUri}`; 400 when the
   * client is unknown or `redirectUri` is not one it registered. */
  oauthClient: (clientId, redirectUri, opts) =>
    request('GET', `/oauth/client?clientId=${enc(clientId)}&redirectUri=${enc(redirectUri)}`, undefined, opts),
  /** The learner's answer on the consent page (`approve`), with the client's OAuth parameters:
   * `{redirectTo}`, the client's address with the code or the refusal. */
  oauthAuthorize: (answer, opts) => request('POST', '/oauth/authorize', answer, opts),
  passwordResetStatus: () => request('GET', '/auth/password-reset', undefined, { auth: false }),
  requestPasswordReset: (mail, language) =>
    request('POST', '/auth/password-reset', { mail, language }, { auth: false }),
  confirmPasswordReset: (token, newPassword) =>
    request('POST', '/auth/password-reset/confirm', { token, newPassword }, { auth: false }),

  stacks: (opts) => request('GET', '/stacks', undefined, opts),
  stack: (id, opts) => request('GET', `/stacks/${enc(id)}`, undefined, opts),
  /** `settings`: optional FSRS limits and retention, `description`, `icon`, `favorite`. */
  createStack: (name, color, scheduler, hintsEnabled, settings = {}) =>
    request('POST', '/stacks', { name, color, scheduler, hintsEnabled, ...settings }),
  updateStack: (id, changes) => request('PATCH', `/stacks/${enc(id)}`, changes),
  deleteStack: (id) => request('DELETE', `/stacks/${enc(id)}`),

  /** One page of a stack's cards; `bookmarked: true` (or false) lists only the (not) bookmarked. */
  cards(id, { page = 1, perPage = 50, q = '', bookmarked } = {}, opts) {
    const query = new URLSearchParams({ page: String(page), perPage: String(perPage) });
    if (q) query.set('q', q);
    if (typeof bookmarked === 'boolean') query.set('bookmarked', String(bookmarked));
    return request('GET', `/stacks/${enc(id)}/cards?${query}`, undefined, opts);
  },
  card: (id, cardId) => request('GET', `/stacks/${enc(id)}/cards/${enc(cardId)}`),
  createCard: (id, card) => request('POST', `/stacks/${enc(id)}/cards`, card),
  updateCard: (id, cardId, changes) => request('PATCH', `/stacks/${enc(id)}/cards/${enc(cardId)}`, changes),
  shareLink: (id) => request('GET', `/stacks/${enc(id)}/share`),
  share: (id) => request('POST', `/stacks/${enc(id)}/share`),
  stopSharing: (id) => request('DELETE', `/stacks/${enc(id)}/share`),
  /** A shared stack by its link's token; no sign-in needed (a session is not sent). */
  sharedStack: (token, page = 1, perPage = 50) =>
    request('GET', `/shared/${enc(token)}?page=${page}&perPage=${perPage}`, undefined, { auth: false }),
  copySharedStack: (token) => request('POST', `/shared/${enc(token)}/copy`),
  /** Uploads a card image (multipart `file`): `{id, …, markdown}`. */
  uploadImage(file) {
    const form = new FormData();
    form.append('file', file, file.name || 'image');
    return request('POST', '/images', form);
  },
  /** A rich text as the server renders it (the card editor's preview). */
  render: (text, signal) => request('POST', '/render', { text }, { signal }),
  deleteCard: (id, cardId) => request('DELETE', `/stacks/${enc(id)}/cards/${enc(cardId)}`),
  /** Bookmarks a card (`on`) or removes its bookmark; resolves with the card. */
  setBookmark: (id, cardId, on) =>
    request(on ? 'PUT' : 'DELETE', `/stacks/${enc(id)}/cards/${enc(cardId)}/bookmark`),

  studyNext: (id, daysAhead = 0) =>
    request('GET', `/stacks/${enc(id)}/study/next?daysAhead=${daysAhead}`, undefined, STUDY),
  /** Rates a card; `extra` carries `daysAhead`, `reviewId`, `durationMs` and `mode`. */
  rate: (id, cardId, rating, extra = {}) =>
    request('POST', `/stacks/${enc(id)}/study/rate`, { cardId, rating, ...extra }, STUDY),
  quiz: (id, daysAhead = 0) =>
    request('GET', `/stacks/${enc(id)}/study/quiz?daysAhead=${daysAhead}`, undefined, STUDY),
  checkAnswer: (id, cardId, answer, ignoreDiacritics) =>
    request('POST', `/stacks/${enc(id)}/study/check`, { cardId, answer, ignoreDiacritics }, STUDY),
  // `reviewId`: undo exactly that review, and only while it is the card's last (409 otherwise).
  undo: (id, cardId, undoId, opts = STUDY, reviewId = undefined) =>
    request('POST', `/stacks/${enc(id)}/cards/${enc(cardId)}/undo`, { id: undoId, reviewId }, opts),
  recordMatch: (id, milliseconds) => request('POST', `/stacks/${enc(id)}/match`, { milliseconds }),
};

// The only way the web app talks to the server: JSON over /api/v1 with a bearer token.
// A 401 anywhere (except signing in) ends the session and sends the user to the login page,
// which returns them to where they were afterwards.

const BASE = '/api/v1';
const TOKEN = 'fc.token';
const USER = 'fc.user';

/** An error answer from the API (or the network), with the API's stable `code`. */
export class ApiError extends Error {
  constructor(status, code, message, retryAfter = null) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

let onUnauthorized = () => {};

/** Installs what happens on a 401 (the app shell redirects to the login page). */
export function setUnauthorizedHandler(handler) {
  onUnauthorized = handler;
}

export const session = {
  /** The bearer token, or null when signed out. localStorage is readable by this origin only. */
  token: () => localStorage.getItem(TOKEN),
  /** The signed-in user as stored at login ({id, name, mail, timeZone}). */
  user() {
    try { return JSON.parse(localStorage.getItem(USER)) || null; } catch { return null; }
  },
  save(auth) {
    localStorage.setItem(TOKEN, auth.token);
    localStorage.setItem(USER, JSON.stringify(auth.user));
  },
  clear() {
    localStorage.removeItem(TOKEN);
    localStorage.removeItem(USER);
  },
};

/** Sends one request; resolves with the decoded JSON (or null for 204), rejects with ApiError. */
export async function request(method, path, body, { auth = true, signal } = {}) {
  const headers = { Accept: 'application/json' };
  const isForm = body instanceof FormData; // multipart uploads: the browser sets the boundary
  if (body !== undefined && !isForm) headers['Content-Type'] = 'application/json';
  const token = session.token();
  if (auth && token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      signal,
      cache: 'no-store',
    });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', error.message);
  }
  if (response.status === 204) return null;
  let data = null;
  const text = await response.text();
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (!response.ok) {
    const error = new ApiError(
      response.status,
      data?.code ?? null,
      data?.message ?? null,
      Number(response.headers.get('Retry-After')) || null,
    );
    if (response.status === 401 && auth) {
      session.clear();
      onUnauthorized(error);
    }
    throw error;
  }
  return data;
}

/** Encodes one path segment or query value. */
export const enc = encodeURIComponent;

/** Typed wrappers, one per /api/v1 route the web app uses (see docs/api.md). */
export const api = {
  signup: (name, mail, password, timeZone) =>
    request('POST', '/auth/signup', { name, mail, password, timeZone }, { auth: false }),
  login: (mail, password) => request('POST', '/auth/login', { mail, password }, { auth: false }),
  me: () => request('GET', '/me'),
  passwordResetStatus: () => request('GET', '/auth/password-reset', undefined, { auth: false }),
  requestPasswordReset: (mail, language) =>
    request('POST', '/auth/password-reset', { mail, language }, { auth: false }),
  confirmPasswordReset: (token, newPassword) =>
    request('POST', '/auth/password-reset/confirm', { token, newPassword }, { auth: false }),

  stacks: (opts) => request('GET', '/stacks', undefined, opts),
  stack: (id, opts) => request('GET', `/stacks/${enc(id)}`, undefined, opts),
  /** `settings`: optional `desiredRetention`, `newCardsPerDay`, `reviewsPerDay` (FSRS stacks). */
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
  deleteCard: (id, cardId) => request('DELETE', `/stacks/${enc(id)}/cards/${enc(cardId)}`),
  /** Bookmarks a card (`on`) or removes its bookmark; resolves with the card. */
  setBookmark: (id, cardId, on) =>
    request(on ? 'PUT' : 'DELETE', `/stacks/${enc(id)}/cards/${enc(cardId)}/bookmark`),

  studyNext: (id, daysAhead = 0) => request('GET', `/stacks/${enc(id)}/study/next?daysAhead=${daysAhead}`),
  /** Rates a card; `extra` carries `daysAhead`, `reviewId`, `durationMs` and `mode`. */
  rate: (id, cardId, rating, extra = {}) =>
    request('POST', `/stacks/${enc(id)}/study/rate`, { cardId, rating, ...extra }),
  quiz: (id, daysAhead = 0) => request('GET', `/stacks/${enc(id)}/study/quiz?daysAhead=${daysAhead}`),
  checkAnswer: (id, cardId, answer, ignoreDiacritics) =>
    request('POST', `/stacks/${enc(id)}/study/check`, { cardId, answer, ignoreDiacritics }),
  undo: (id, cardId, undoId) => request('POST', `/stacks/${enc(id)}/cards/${enc(cardId)}/undo`, { id: undoId }),
  recordMatch: (id, milliseconds) => request('POST', `/stacks/${enc(id)}/match`, { milliseconds }),
};

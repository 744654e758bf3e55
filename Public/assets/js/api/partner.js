// The study partner's calls ("Lernpartner", docs/web.md): whether the server has a language model
// (`GET /generation`: `model` null means none), and one answer of the partner
// (`POST /stacks/{id}/partner`), read while the model writes it. The answer is a stream of
// Server-Sent Events read with fetch, as an EventSource cannot send the Authorization header:
// `sources` (the learner's cards it is grounded in), `delta` (pieces of the text), then `done` (the
// whole answer as sanitised HTML, and a generation job's id for "more cards") or `error`.

import { ApiError, enc, request } from './client.js';

/** The stream broke off: an `error` event (`message`, `code` of the server), or the connection
 * ended before `done` (`code` 'stream_ended' or 'network'). */
export class PartnerStreamError extends Error {
  constructor(message, code) {
    super(message || code || 'stream_error');
    this.code = code || null;
    this.serverMessage = message || null;
  }
}

/** The name of the server's language model, or null when it has none (an older server without
 * `GET /generation` neither). Rejects when the server cannot be asked (no connection). */
export async function partnerModel({ signal } = {}) {
  try {
    const info = await request('GET', '/generation', undefined, { auth: false, signal });
    return typeof info?.model === 'string' && info.model ? info.model : null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Asks the partner; resolves with `{html, jobId, text}` once the answer is complete. `body`:
 * `{message, cardId, action, history}` (the API's). While it streams, `onSources(sources)` gets the
 * cards it is grounded in and `onDelta(piece, textSoFar)` each piece of the text. Rejects with
 * ApiError before the stream (400, 401, 404, 409 `partner_needs_model`, no connection), with
 * PartnerStreamError when the stream breaks off (what came stays with the caller), and with an
 * AbortError when `signal` aborts.
 */
export async function askPartner(stackId, body, { signal, onSources, onDelta } = {}) {
  const response = await request('POST', `/stacks/${enc(stackId)}/partner`, body,
    { signal, raw: true, accept: 'text/event-stream' });
  let text = '';
  try {
    for await (const { event, data } of serverEvents(response.body)) {
      const value = parse(data);
      if (event === 'sources') onSources?.(Array.isArray(value.sources) ? value.sources : []);
      else if (event === 'delta' && typeof value.text === 'string') {
        text += value.text;
        onDelta?.(value.text, text);
      } else if (event === 'done') {
        return { html: typeof value.html === 'string' ? value.html : '', jobId: value.jobId || null, text };
      } else if (event === 'error') {
        throw new PartnerStreamError(value.message, value.code || 'partner_failed');
      }
    }
  } catch (error) {
    if (error.name === 'AbortError' || error instanceof PartnerStreamError) throw error;
    if (signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    throw new PartnerStreamError(null, 'network');
  }
  throw new PartnerStreamError(null, 'stream_ended');
}

/** An event's `data` as an object ({} when it is not JSON). */
function parse(data) {
  try {
    const value = JSON.parse(data);
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** The events of an event stream (`{event, data}`; comments and other fields skipped), as the
 * HTML standard reads them; the stream is cancelled when the reader stops early. */
async function* serverEvents(stream) {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let event = '';
  let data = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      pending += decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const raw of lines) {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (!line) {
          if (data.length) yield { event: event || 'message', data: data.join('\n') };
          event = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const rest = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = rest;
        else if (field === 'data') data.push(rest);
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

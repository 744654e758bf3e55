// All API calls of the "Automatisch erstellen" page live here. The server's generation API is
// not defined yet: `generateDrafts` is the function to fill in once it is. Until then it
// rejects with GenerationUnavailableError and the page says so.

import { api } from './client.js';

/** Thrown while the server offers no generation API. */
export class GenerationUnavailableError extends Error {
  constructor() {
    super('generation_unavailable');
    this.code = 'generation_unavailable';
  }
}

/** Limits the page checks before sending anything (the seed's 10 MB rule). */
export const LIMITS = { maxBytes: 10 * 1024 * 1024 };

/**
 * Asks the server for card drafts.
 * @param {string} stackId
 * @param {{source: 'pdf'|'photo'|'text'|'topic', file?: File, text?: string, topic?: string,
 *          instructions?: string}} input
 * @param {{signal?: AbortSignal, onProgress?: (fraction: number) => void}} options
 * @returns {Promise<Array<{question: string, answer: string, hint?: string}>>}
 */
export async function generateDrafts(stackId, input, { signal } = {}) {
  void stackId; void input; void signal;
  // TODO(lead): POST the input (multipart for files) to the generation route and return drafts.
  throw new GenerationUnavailableError();
}

/** Adds the accepted drafts to the stack, one card each, through the existing cards route. */
export async function acceptDrafts(stackId, drafts) {
  const created = [];
  for (const draft of drafts) {
    created.push(await api.createCard(stackId, {
      question: draft.question,
      answer: draft.answer,
      ...(draft.hint ? { hint: draft.hint } : {}),
    }));
  }
  return created;
}

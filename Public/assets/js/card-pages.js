// A read-only list of a stack's cards, a page at a time, for stacks the learner does not own (a
// shared stack, a catalogue entry): question and answer side by side, rich cards as the server's
// sanitised HTML (rich-text.js), a "more" button while pages are left.

import { t } from './i18n.js';
import { navigate } from './router.js';
import { errorText, setBusy, toast } from './ui.js';
import { setCardText } from './rich-text.js';

/**
 * Fills `list` (an <ol>) with the cards of `first` (a page `{items, page, perPage, total}`) and
 * wires `more` to load the next page with `loadPage(n)`.
 */
export function showCardPages(list, more, first, loadPage) {
  let page = first.page;
  function append(cards) {
    for (const card of cards.items) {
      const item = document.createElement('li');
      item.className = 'shared-card';
      for (const field of ['question', 'answer']) {
        const part = document.createElement('div');
        part.className = `shared-${field}`;
        setCardText(part, card, field);
        item.append(part);
      }
      list.append(item);
    }
    more.hidden = cards.page * cards.perPage >= cards.total;
  }
  append(first);
  more.addEventListener('click', async () => {
    setBusy(more, true);
    try {
      append(await loadPage(page + 1));
      page += 1;
    } catch (error) {
      toast(errorText(error), 'error');
    } finally {
      setBusy(more, false);
    }
  });
}

/**
 * Wires `button` to copy the stack into the learner's library with `copy()` (resolving the new
 * stack), say so with the string `copiedKey` and open the copy.
 */
export function wireCopyButton(button, copy, copiedKey) {
  button?.addEventListener('click', async () => {
    setBusy(button, true);
    try {
      const stack = await copy();
      toast(t(copiedKey, { name: stack.name }));
      navigate(`/app/stacks/${stack.id}`);
    } catch (error) {
      setBusy(button, false);
      if (error.status !== 401) toast(errorText(error), 'error');
    }
  });
}

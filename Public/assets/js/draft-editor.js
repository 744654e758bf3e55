// The review list of generated drafts on the "Automatisch erstellen" page: one <card-draft> per draft
// (components/card-draft: the growing front and back, the checkbox, the source sentence, the switch
// to the draft's alternative card type, the badge for facts already in the stack), each in an item
// of the list. Drafts arrive in batches (while a job runs, and from further topic batches): new ones
// are appended, items already shown are never rendered again, so the user's edits stay. The source
// text beside the list (views/magic/source-view.js) adds the learner's own drafts and leads to a
// draft through `reveal`.

import '../components/card-draft/card-draft.js';

class DraftEditor {
  /** `list`: an `<ol>`; `onChange()` runs whenever the selection or the set of drafts changed;
   * `announce(text)` speaks a short message (a polite live region). */
  constructor(list, { onChange, announce }) {
    this.list = list;
    this.onChange = onChange;
    /** id → <card-draft>, in the order shown. */
    this.items = new Map();
    this.counter = 0;
    list.addEventListener('draft-keep', () => onChange());
    list.addEventListener('draft-announce', (event) => announce(event.detail));
  }

  get all() { return [...this.items.values()]; }

  get size() { return this.items.size; }

  get selected() { return this.all.filter((i) => i.kept).length; }

  /** Selected drafts that are already in the stack. */
  get selectedDuplicates() { return this.all.filter((i) => i.duplicate && i.kept).length; }

  get duplicates() { return this.all.filter((i) => i.duplicate).length; }

  /** Appends the drafts not shown yet; returns how many were new. `pages`: show the source page
   * (for documents with pages; pasted text and a photo are one "page" to the server). */
  add(drafts, { pages = true } = {}) {
    let added = 0;
    for (const d of drafts || []) {
      if (!d?.id || this.items.has(d.id)) continue;
      this.counter += 1;
      const li = document.createElement('li');
      li.className = 'draft';
      li.dataset.id = d.id;
      const item = document.createElement('card-draft');
      item.show(d, this.counter, { pages });
      li.append(item);
      this.list.append(li);
      this.items.set(d.id, item);
      added += 1;
    }
    if (added) this.onChange();
    return added;
  }

  /** Whether the draft `id` is in the list. */
  has(id) { return this.items.has(id); }

  /** Scrolls to the draft `id` and focuses its front, marking it for a moment (the source text's
   * marked sentences lead here); false when it is not in the list. */
  reveal(id) {
    const item = this.items.get(id);
    if (!item) return false;
    const li = item.parentElement;
    item.field('question').focus({ preventScroll: true });
    const still = matchMedia('(prefers-reduced-motion: reduce)').matches;
    li.scrollIntoView({ block: 'center', behavior: still ? 'auto' : 'smooth' });
    li.classList.remove('is-found');
    li.getBoundingClientRect(); // restarts the mark's animation
    li.classList.add('is-found');
    li.addEventListener('animationend', () => li.classList.remove('is-found'), { once: true });
    return true;
  }

  /** Removes the items whose id is not in `keep` (drafts the server no longer has). */
  prune(keep, { jobId } = {}) {
    let removed = 0;
    for (const [id, item] of this.items) {
      if (keep.has(id) || (jobId && item.draft.jobId !== jobId)) continue;
      item.parentElement.remove();
      this.items.delete(id);
      removed += 1;
    }
    if (removed) this.onChange();
    return removed;
  }

  reset() {
    this.items.clear();
    this.counter = 0;
    this.list.replaceChildren();
    this.onChange();
  }

  /** Marks the empty front or back of every kept draft; returns the first such field, or null
   * when the selection can be accepted. */
  markEmpty() {
    let first = null;
    for (const item of this.all) {
      const empty = item.markEmpty();
      first ??= empty;
    }
    return first;
  }

  setAll(checked) {
    for (const item of this.all) item.kept = checked;
    this.onChange();
  }

  /** Deselects every draft that is already in the stack; returns how many were deselected. */
  dropDuplicates() {
    const dropped = this.all.filter((item) => item.duplicate && item.kept);
    for (const item of dropped) item.kept = false;
    if (dropped.length) this.onChange();
    return dropped.length;
  }

  /** What `acceptDrafts` needs: each draft with its current text, kept or not, changed or not
   * (call `markEmpty()` first: a kept draft must have a front and a back). */
  selection() {
    return this.all.map((item) => item.value);
  }
}

/** The editor inside `list` (see DraftEditor). */
export const createDraftEditor = (list, { onChange = () => {}, announce = () => {} } = {}) =>
  new DraftEditor(list, { onChange, announce });

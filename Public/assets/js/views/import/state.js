// The import screen's state (views/import.js): the file, what the user set, the server's preview,
// the target chosen and the requests under way. No DOM here: the screen (import/screen.js) owns one
// ImportState and renders from it (import/render.js).

import { t } from '../../i18n.js';

export const ROLES = ['front', 'back', 'hint', 'tags'];
/** The separators offered by name (value → string key); anything else is a custom one. */
export const SEPARATORS = { '\t': 'tab', ',': 'comma', ';': 'semicolon' };
/** The words that differ between an Anki package and a backup (by the preview's `format`). */
const PACKAGE_WORDS = {
  apkg: {
    format: 'imp.formatApkg', caption: 'imp.decksCaption', deck: 'imp.deck', history: 'imp.history',
    noHistory: 'imp.noHistory', cardsAll: 'imp.cardsAll', cardsFirst: 'imp.cardsFirst', noCards: 'imp.noCardsPackage',
    problem: 'imp.packageProblem', failedHelp: 'imp.failedHelpAnki',
  },
  json: {
    format: 'imp.formatBackup', caption: 'imp.backupCaption', deck: 'imp.stack', history: 'imp.backupHistory',
    noHistory: 'imp.backupNoHistory', cardsAll: 'imp.backupCardsAll', cardsFirst: 'imp.backupCardsFirst',
    noCards: 'imp.backupNoCards', problem: 'imp.backupProblem', failedHelp: 'imp.failedHelpBackup',
  },
};

/** Whether the first bytes of `file` are a zip's ("PK"), as the server tells an Anki package. */
const sniffZip = (file) => file.slice(0, 2).arrayBuffer()
  .then((bytes) => new Uint8Array(bytes).join() === '80,75')
  .catch(() => /\.(apkg|colpkg|zip)$/i.test(file.name));

/**
 * `columns` with `role` moved to `column` (null: none): a role that had that column takes the old
 * one of `role` (the two swap). Null when front or back would be left without a column.
 */
export function remap(columns, role, column) {
  const next = { ...columns, [role]: column };
  if (column === null) return next;
  for (const other of ROLES) {
    if (other === role || next[other] !== column) continue;
    next[other] = columns[role] ?? null;
    if (next[other] === null && (other === 'front' || other === 'back')) return null;
  }
  return next;
}

export class ImportState {
  /** `stacks`: the user's stacks (targets); `from`: the stack the page was opened from, if any. */
  constructor(stacks, from) {
    this.stacks = stacks;
    this.from = from;
    this.clearFile();
    this.running = null; // the AbortController of the import under way
  }

  /** No file, no preview, nothing chosen. */
  clearFile() {
    this.file = null;
    this.isZip = Promise.resolve(false); // whether `file` is a zip (an Anki package or meant as one)
    this.options = {}; // what the user set: separator, hasHeader, columns (absent: the server decides)
    this.separatorChoice = ''; // '' automatic, a separator, or 'custom'
    this.preview = null;
    this.previewing = null; // the AbortController of the preview under way
    this.nameEdited = false;
    this.targetChoice = null; // the target the user picked for this file: 'decks', 'new' or 'existing'
  }

  /** A new file chosen: what was set for the last one no longer applies. */
  setFile(file) {
    this.file = file;
    this.isZip = sniffZip(file);
    this.options = {};
    this.separatorChoice = '';
    this.nameEdited = false;
    this.targetChoice = null;
  }

  /** Starts a preview request, aborting the one under way; returns its AbortController. */
  startPreview() {
    this.previewing?.abort();
    this.previewing = new AbortController();
    return this.previewing;
  }

  /** Ends every request under way (the user left the page). */
  abortAll() {
    this.previewing?.abort();
    this.running?.abort();
  }

  get isAnki() { return this.preview?.format === 'apkg'; }

  get isBackup() { return this.preview?.format === 'json'; }

  /** An Anki package or a backup: decks (stacks) with their cards and history, no CSV controls. */
  get hasDecks() { return this.isAnki || this.isBackup; }

  get words() { return PACKAGE_WORDS[this.preview.format]; }

  get importable() {
    const p = this.preview;
    return Boolean(p) && !this.previewing && p.cards > 0 && !p.rejected && !p.problems.length;
  }

  /** Where the cards may go, in the order offered: an Anki package's decks each as a stack first; a
   * backup's stacks only as copies (a single one also under a new name), never into an existing one. */
  targets() {
    if (this.isBackup) return ['decks', ...(this.preview.decks?.length === 1 ? ['new'] : [])];
    return [...(this.isAnki ? ['decks'] : []), 'new', ...(this.stacks.length ? ['existing'] : [])];
  }

  /** The target chosen: the user's pick, else the stack the page came from, else the first offered. */
  choice() {
    const offered = this.targets();
    if (offered.includes(this.targetChoice)) return this.targetChoice;
    if (this.from && offered.includes('existing')) return 'existing';
    return offered[0];
  }

  /** The stack name suggested for 'new': a backup's single stack keeps its name, else the server's. */
  suggestedName() {
    const p = this.preview;
    return (this.isBackup && p.decks?.length === 1 ? p.decks[0].name : p.suggestedStackName) || '';
  }

  /** The verdict in a sentence: the cards to import, or that problems stop it. */
  verdictText() {
    const { cards, rejected, problems } = this.preview;
    if (this.hasDecks) {
      // Notes that break a rule are counted; a package or backup that cannot be read is one problem.
      if (rejected && problems.some((p) => p.note != null)) return t('imp.notesProblemsTitle', { count: rejected });
      if (rejected || problems.length) return t(this.words.problem);
      return cards ? t('imp.count', { count: cards }) : t(this.words.noCards);
    }
    if (rejected) return t('imp.problemsTitle', { count: rejected });
    if (problems.length) return t('imp.problemsAny');
    return cards ? t('imp.count', { count: cards }) : t('imp.noCards');
  }

  /** What the import job is told: an Anki package or a backup goes by its decks unless one stack is
   * named; a CSV/TSV file as the preview read it. */
  importChoices(where, { name, stackId }) {
    const p = this.preview;
    return {
      ...(this.hasDecks ? {} : { separator: p.separator, hasHeader: p.hasHeader, columns: p.columns }),
      ...(where === 'existing' ? { stackId } : where === 'new' ? { stackName: name } : {}),
    };
  }

  /** The stacks an import created join the targets offered next time. */
  addStacks(made) {
    for (const s of made) if (s.created) this.stacks.push({ id: s.id, name: s.name });
  }
}

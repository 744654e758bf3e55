// The source text of a generation job as the draft review shows it beside the drafts
// (magic/source-view.js): the API's `GET …/generations/{jobId}/source` mapped to rows the markup
// draws, which sentences have a card, and which paragraphs and sections have none. Pure: no DOM,
// no strings of the interface (Tests/js/source-model.test.mjs runs it under Node).

/** A section with less running text than this is not named as one without cards (the server's
 * `SourceOutline.sectionsWithoutDrafts(minimumWords:)`); its paragraphs are marked instead. */
export const MIN_SECTION_WORDS = 8;

/** A selected part of a sentence marks it when it is at least this long (or the whole sentence),
 * as the server compares a draft's source with the sentences (`SourceOutline.marked(with:)`). */
export const MIN_PART_CHARS = 12;

/** The longest passage the suggestion and the draft accept (API: 1–4000 characters). */
export const MAX_PASSAGE_CHARS = 4000;

const KINDS = new Set(['heading', 'paragraph', 'bullet']);
const QUOTES = /^["„“”'‚‘’ ]+|["„“”'‚‘’ ]+$/g;

/** Lower-cased, single spaces, no surrounding quotes: how the server compares texts. */
export function normalized(text) {
  return String(text ?? '').toLowerCase().split(/\s+/).filter(Boolean).join(' ').replace(QUOTES, '');
}

const words = (text) => String(text).split(/\s+/).filter(Boolean).length;
const ids = (list) => (Array.isArray(list) ? list.filter((id) => typeof id === 'string' && id) : []);

/**
 * The view model of a source DTO: `sections` (each with `parts` in reading order: a heading, a
 * paragraph, or a list of bullet blocks), and flat `blocks` and `sentences` indexed by their
 * `index` (a sentence's `index` is its place in the keyboard order). A PDF's blocks carry
 * `pageMark` where a new page starts. Coverage (`covered`, `gap`) is computed by `recount`.
 */
export function sourceModel(dto) {
  const model = {
    jobId: dto?.jobId ?? null,
    origin: dto?.origin ?? 'text',
    language: ['de', 'en'].includes(dto?.language) ? dto.language : null,
    pages: dto?.origin === 'pdf',
    sections: [],
    blocks: [],
    sentences: [],
  };
  let lastPage = null;
  for (const raw of Array.isArray(dto?.sections) ? dto.sections : []) {
    const section = newSection(model, raw);
    for (const b of Array.isArray(raw?.blocks) ? raw.blocks : []) {
      const block = newBlock(model, section, b);
      if (!block) continue;
      if (model.pages && block.page && block.page !== lastPage) {
        block.pageMark = block.page;
        lastPage = block.page;
      }
      addPart(section, block);
    }
    if (section.blocks.length) model.sections.push(section);
  }
  return recount(model);
}

function newSection(model, raw) {
  const title = typeof raw?.title === 'string' && raw.title.trim() ? raw.title.trim() : null;
  return { index: model.sections.length, title, parts: [], blocks: [], covered: false, gap: false, words: 0 };
}

/** A block with its sentences added to the model, or null when it has no text. */
function newBlock(model, section, raw) {
  const texts = (Array.isArray(raw?.sentences) ? raw.sentences : [])
    .filter((s) => typeof s?.text === 'string' && s.text.trim());
  if (!texts.length) return null;
  const page = Number.isInteger(raw.page) && raw.page > 0 ? raw.page : null;
  const block = {
    index: model.blocks.length, section: section.index, kind: KINDS.has(raw.kind) ? raw.kind : 'paragraph',
    page, pageMark: null, sentences: [], covered: false, gap: false,
  };
  for (const s of texts) {
    const draftIds = ids(s.draftIds);
    const sentence = {
      index: model.sentences.length, block: block.index, section: section.index, page,
      text: s.text.trim(), draftIds, covered: Boolean(s.covered) || draftIds.length > 0,
    };
    model.sentences.push(sentence);
    block.sentences.push(sentence.index);
  }
  model.blocks.push(block);
  section.blocks.push(block.index);
  return block;
}

/** Bullets in a row make one list (a new page starts a new one, after its page mark). */
function addPart(section, block) {
  const last = section.parts.at(-1);
  if (block.kind === 'bullet' && last?.kind === 'list' && block.pageMark === null) last.items.push(block);
  else if (block.kind === 'bullet') section.parts.push({ kind: 'list', items: [block] });
  else section.parts.push({ kind: block.kind, block });
}

/**
 * Works out coverage from the sentences: a block is covered when one of its sentences is, a
 * section when one of its blocks is. A section `gap` is an uncovered section with enough running
 * text; a block `gap` is an uncovered paragraph or bullet outside such a section (so that a gap is
 * said once, for the section or for its paragraphs). Returns the model.
 */
export function recount(model) {
  for (const block of model.blocks) block.covered = block.sentences.some((i) => model.sentences[i].covered);
  for (const section of model.sections) {
    const blocks = section.blocks.map((i) => model.blocks[i]);
    section.covered = blocks.some((b) => b.covered);
    section.words = blocks.filter((b) => b.kind !== 'heading')
      .reduce((sum, b) => sum + b.sentences.reduce((n, i) => n + words(model.sentences[i].text), 0), 0);
    section.gap = !section.covered && section.words >= MIN_SECTION_WORDS;
    for (const b of blocks) b.gap = b.kind !== 'heading' && !b.covered && !section.gap;
  }
  return model;
}

/**
 * The sentences a passage marks, from the selected part of each sentence it touches
 * (`parts`: [{index, text}]): a part that is the whole sentence, or at least MIN_PART_CHARS long.
 */
export function passageSentences(model, parts) {
  const marked = [];
  for (const { index, text } of parts) {
    const sentence = model.sentences[index];
    const part = normalized(text);
    if (!sentence || !part) continue;
    if (part === normalized(sentence.text) || part.length >= MIN_PART_CHARS) marked.push(index);
  }
  return marked;
}

/**
 * The passage's text from the selected parts of its sentences: sentences of one block joined by a
 * space, blocks by a line break; at most MAX_PASSAGE_CHARS.
 */
export function passageText(model, parts) {
  let text = '';
  let lastBlock = null;
  for (const { index, text: part } of parts) {
    const piece = String(part).replace(/\s+/g, ' ').trim();
    const sentence = model.sentences[index];
    if (!piece || !sentence) continue;
    if (text) text += sentence.block === lastBlock ? ' ' : '\n';
    text += piece;
    lastBlock = sentence.block;
  }
  return text.slice(0, MAX_PASSAGE_CHARS).trim();
}

/** The page a passage starts on (a PDF's), or null. */
export function passagePage(model, parts) {
  if (!model.pages) return null;
  for (const { index, text } of parts) {
    if (String(text).trim() && model.sentences[index]?.page) return model.sentences[index].page;
  }
  return null;
}

/** Marks `indices` as covered by the draft `draftId` (made from them); returns the model. */
export function markSentences(model, indices, draftId) {
  for (const i of indices) {
    const sentence = model.sentences[i];
    if (!sentence) continue;
    sentence.covered = true;
    if (draftId && !sentence.draftIds.includes(draftId)) sentence.draftIds.push(draftId);
  }
  return recount(model);
}

/** The sentence a key moves to from `index` among `count` (arrows, Home, End), or null. */
export function stepSentence(count, index, key) {
  if (!count) return null;
  switch (key) {
    case 'ArrowDown':
    case 'ArrowRight':
      return Math.min(count - 1, index + 1);
    case 'ArrowUp':
    case 'ArrowLeft':
      return Math.max(0, index - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** The next of `draftIds` shown in the list (`shown(id)`) after `last` (cycling), or null. */
export function nextDraft(draftIds, shown, last) {
  const present = draftIds.filter((id) => shown(id));
  if (!present.length) return null;
  const at = present.indexOf(last);
  return present[(at + 1) % present.length];
}

/** The job result's `sectionsWithoutCards` (titles; the untitled section is ''). */
export function gapTitles(result) {
  const list = result?.sectionsWithoutCards;
  return Array.isArray(list) ? list.filter((s) => typeof s === 'string') : [];
}

/** Whether a (German) warning of the job is the one that names the sections without cards. */
export const isGapWarning = (text) => /^Zu \S+ Abschnitt(?:en)? wurden? keine Karten? erstellt/.test(String(text).trim());

// The source text beside the drafts (Public/assets/js/views/magic/source-model.js): the API's
// source DTO as rows, coverage and gaps, the sentences a selected passage marks (the server's rule
// in SourceOutline.marked(with:)), the passage's text and page, keys and the job result's gaps.
// Run with `node --test Tests/js/` (scripts/test does).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  MAX_PASSAGE_CHARS, MIN_PART_CHARS, MIN_SECTION_WORDS, gapTitles, isGapWarning, markSentences, nextDraft,
  normalized, passagePage, passageSentences, passageText, recount, sourceModel, stepSentence,
} from '../../Public/assets/js/views/magic/source-model.js';

const sentence = (text, draftIds = []) => ({ text, draftIds, covered: draftIds.length > 0 });

/** A PDF of two pages: an untitled intro, a covered section, an uncovered one, a short one. */
const DTO = {
  jobId: 'job-1',
  origin: 'pdf',
  language: 'de',
  sections: [
    {
      title: null, covered: false,
      blocks: [{ kind: 'paragraph', page: 1, covered: false, sentences: [sentence('Ein kurzer Vorspann.')] }],
    },
    {
      title: '1 Nachfrage', covered: true,
      blocks: [
        { kind: 'heading', page: 1, covered: false, sentences: [sentence('1 Nachfrage')] },
        {
          kind: 'paragraph', page: 1, covered: true,
          sentences: [sentence('Die Nachfrage ist die Menge, die Käufer erwerben wollen.', ['d1']), sentence('Sie sinkt meist mit dem Preis.')],
        },
        { kind: 'paragraph', page: 1, covered: false, sentences: [sentence('Ein Absatz ohne jede Karte daraus.')] },
        { kind: 'bullet', page: 1, covered: false, sentences: [sentence('Einkommen')] },
        { kind: 'bullet', page: 2, covered: true, sentences: [sentence('Preise anderer Güter', ['d2'])] },
        { kind: 'bullet', page: 2, covered: false, sentences: [sentence('Erwartungen')] },
      ],
    },
    {
      title: '2 Elastizität', covered: false,
      blocks: [
        { kind: 'heading', page: 2, covered: false, sentences: [sentence('2 Elastizität')] },
        {
          kind: 'paragraph', page: 2, covered: false,
          sentences: [sentence('Die Preiselastizität misst, wie stark die Nachfrage auf den Preis reagiert.')],
        },
      ],
    },
    { title: '3 Leer', covered: false, blocks: [{ kind: 'heading', page: 2, covered: false, sentences: [] }] },
  ],
  sectionsWithoutDrafts: ['2 Elastizität'],
};

test('the DTO becomes sections of parts with sentences in keyboard order', () => {
  const model = sourceModel(DTO);
  assert.equal(model.jobId, 'job-1');
  assert.equal(model.language, 'de');
  assert.equal(model.pages, true);
  // A section without text is left out.
  assert.deepEqual(model.sections.map((s) => s.title), [null, '1 Nachfrage', '2 Elastizität']);
  assert.deepEqual(model.sentences.map((s) => s.index), [...model.sentences.keys()]);
  assert.equal(model.sentences.length, 10);
  const [, demand] = model.sections;
  // Bullets in a row are one list; a new page starts a new one.
  assert.deepEqual(demand.parts.map((p) => p.kind), ['heading', 'paragraph', 'paragraph', 'list', 'list']);
  assert.deepEqual(demand.parts[3].items.map((b) => model.sentences[b.sentences[0]].text), ['Einkommen']);
  assert.deepEqual(demand.parts[4].items.map((b) => model.sentences[b.sentences[0]].text), ['Preise anderer Güter', 'Erwartungen']);
  // Page marks where a page starts (the first block counts).
  assert.deepEqual(model.blocks.filter((b) => b.pageMark).map((b) => b.pageMark), [1, 2]);
  assert.equal(model.sentences[2].draftIds[0], 'd1');
  assert.equal(model.sentences[2].covered, true);
});

test('pasted text has no page marks and unknown kinds read as paragraphs', () => {
  const model = sourceModel({
    origin: 'text',
    sections: [{ title: '  ', blocks: [{ kind: 'table', page: 1, sentences: [{ text: ' Satz eins. ' }, { text: '' }, {}] }] }],
  });
  assert.equal(model.pages, false);
  assert.equal(model.language, null);
  assert.equal(model.sections[0].title, null);
  assert.equal(model.blocks[0].kind, 'paragraph');
  assert.equal(model.blocks[0].pageMark, null);
  assert.deepEqual(model.sentences.map((s) => s.text), ['Satz eins.']);
  assert.deepEqual(sourceModel(null).sections, []);
});

test('gaps: an uncovered section with running text, else its uncovered paragraphs and bullets', () => {
  const model = sourceModel(DTO);
  const [intro, demand, elasticity] = model.sections;
  assert.equal(elasticity.covered, false);
  assert.ok(elasticity.words >= MIN_SECTION_WORDS);
  assert.equal(elasticity.gap, true);
  // Within a gap section the paragraph is not named again.
  assert.equal(model.blocks[elasticity.blocks[1]].gap, false);
  // A short uncovered section is not named; its paragraph is.
  assert.equal(intro.gap, false);
  assert.equal(model.blocks[intro.blocks[0]].gap, true);
  // A covered section names its uncovered paragraph and bullets, never its heading.
  assert.equal(demand.gap, false);
  assert.deepEqual(demand.blocks.map((i) => model.blocks[i]).map((b) => [b.kind, b.covered, b.gap]), [
    ['heading', false, false], ['paragraph', true, false], ['paragraph', false, true],
    ['bullet', false, true], ['bullet', true, false], ['bullet', false, true],
  ]);
});

test('a passage marks the sentences it holds whole or in a long enough part', () => {
  const model = sourceModel(DTO);
  const whole = model.sentences[4].text; // 'Ein Absatz ohne jede Karte daraus.'
  assert.deepEqual(passageSentences(model, [{ index: 4, text: whole }]), [4]);
  // A short sentence selected whole (quotes and spacing ignored) counts, a short piece does not.
  assert.deepEqual(passageSentences(model, [{ index: 5, text: ' „Einkommen“ ' }]), [5]);
  assert.deepEqual(passageSentences(model, [{ index: 4, text: 'Absatz' }]), []);
  const piece = 'Preiselastizität misst';
  assert.ok(piece.length >= MIN_PART_CHARS);
  assert.deepEqual(passageSentences(model, [{ index: 9, text: piece }, { index: 99, text: 'gone' }, { index: 8, text: ' ' }]), [9]);
});

test('the passage text joins sentences of a block by spaces and blocks by line breaks', () => {
  const model = sourceModel(DTO);
  const parts = [
    { index: 2, text: 'Käufer erwerben wollen.' }, { index: 3, text: 'Sie sinkt\n meist mit dem Preis.' },
    { index: 4, text: 'Ein Absatz' }, { index: 5, text: '   ' },
  ];
  assert.equal(passageText(model, parts), 'Käufer erwerben wollen. Sie sinkt meist mit dem Preis.\nEin Absatz');
  assert.equal(passageText(model, [{ index: 4, text: 'x'.repeat(MAX_PASSAGE_CHARS + 10) }]).length, MAX_PASSAGE_CHARS);
  assert.equal(passagePage(model, [{ index: 6, text: '  ' }, { index: 7, text: 'Preise' }]), 2);
  assert.equal(passagePage(sourceModel({ ...DTO, origin: 'text' }), [{ index: 7, text: 'Preise' }]), null);
});

test('marking a passage covers its sentences, blocks and section', () => {
  const model = sourceModel(DTO);
  const elasticity = model.sections[2];
  markSentences(model, [9], 'new-draft');
  assert.deepEqual(model.sentences[9].draftIds, ['new-draft']);
  assert.equal(model.sentences[9].covered, true);
  assert.equal(model.blocks[model.sentences[9].block].covered, true);
  assert.equal(elasticity.covered, true);
  assert.equal(elasticity.gap, false);
  markSentences(model, [9, 404], 'new-draft');
  assert.deepEqual(model.sentences[9].draftIds, ['new-draft']); // once
  // recount alone is stable.
  assert.equal(recount(model), model);
  assert.equal(elasticity.covered, true);
});

test('keys move between sentences and stop at the ends', () => {
  assert.equal(stepSentence(5, 0, 'ArrowDown'), 1);
  assert.equal(stepSentence(5, 0, 'ArrowRight'), 1);
  assert.equal(stepSentence(5, 4, 'ArrowDown'), 4);
  assert.equal(stepSentence(5, 0, 'ArrowUp'), 0);
  assert.equal(stepSentence(5, 3, 'ArrowLeft'), 2);
  assert.equal(stepSentence(5, 3, 'Home'), 0);
  assert.equal(stepSentence(5, 1, 'End'), 4);
  assert.equal(stepSentence(5, 1, 'a'), null);
  assert.equal(stepSentence(0, 0, 'End'), null);
});

test('a sentence with several drafts leads to each in turn, skipping those not in the list', () => {
  const shown = (id) => id !== 'b';
  assert.equal(nextDraft(['a', 'b', 'c'], shown, undefined), 'a');
  assert.equal(nextDraft(['a', 'b', 'c'], shown, 'a'), 'c');
  assert.equal(nextDraft(['a', 'b', 'c'], shown, 'c'), 'a');
  assert.equal(nextDraft(['b'], shown, undefined), null);
  assert.equal(nextDraft([], shown, undefined), null);
});

test('the job result names its sections without cards; their German warning is recognised', () => {
  assert.deepEqual(gapTitles({ sectionsWithoutCards: ['A', '', 3, null, 'B'] }), ['A', '', 'B']);
  assert.deepEqual(gapTitles({}), []);
  assert.deepEqual(gapTitles(undefined), []);
  assert.equal(isGapWarning('Zu 2 Abschnitten wurden keine Karten erstellt: A, B.'), true);
  assert.equal(isGapWarning('Zu einem Abschnitt wurden keine Karten erstellt: „A“.'), true);
  assert.equal(isGapWarning('Zu 1 Abschnitt wurde keine Karte erstellt: A.'), true);
  assert.equal(isGapWarning('Seite 3 enthielt keinen Text.'), false);
  assert.equal(isGapWarning('Zu diesem Thema gibt es nichts.'), false);
});

test('texts compare as the server compares them', () => {
  assert.equal(normalized('  „Die  Zelle\n ist“ '), 'die zelle ist');
  assert.equal(normalized(undefined), '');
});

import { describe, expect, it } from 'vitest';
import { type IndexState } from '../../src/memory/indexing/index-state.js';
import { tokenize } from '../../src/memory/indexing/tokenize.js';
import { memoriesToInject } from '../../src/memory/recall/injection.js';
import { queryConcepts, queryWords } from '../../src/memory/recall/query-plan.js';
import { RANKING_DEFAULTS } from '../../src/memory/recall/ranking.js';
import { recall } from '../../src/memory/recall/recall.js';
import { IRREGULAR_FORMS } from '../../src/memory/recall/thesaurus.js';
import { INFLECTION_TABLE } from '../../src/memory/recall/inflection-table.js';
import { indexDoc, indexStateOf, RANKING_NOW } from './helpers.js';

const NOW = RANKING_NOW;
/** Words no table knows: documents padded with them differ only where a test says. */
const FILLER = ['zorp', 'quix', 'blem', 'frab', 'twell', 'gronk', 'vusk', 'plim'];

const term = (word: string) => tokenize(word)[0]!;
const ranking = (inflection: number) => ({ ...RANKING_DEFAULTS, inflection });
const search = async (state: IndexState, text: string, inflection: number) =>
  (await recall({ state }, { text, now: NOW, k: 10, ranking: ranking(inflection) })).items;

/**
 * Notes that say a thing in one tense (or number), each beside one that repeats the question's other
 * words more often: only the form tells them apart.
 */
const vault = indexStateOf(
  indexDoc('felt', 'After the surgery I felt lighter than I have in years.'),
  indexDoc('surgery-date', 'Surgery after surgery: the surgery date moved again.'),
  indexDoc('took', 'She took the night train to Lisbon.'),
  indexDoc('lisbon-train', 'Train to Lisbon: the Lisbon train is late.'),
  indexDoc('men', 'The men started swimming lessons on Saturdays.'),
  indexDoc('saturdays', 'Saturdays, always Saturdays: the market opens on Saturdays.'),
  indexDoc('risen', 'Prices have risen every spring since the merger.'),
  indexDoc('rose-call', 'Rose called about the garden on Monday.'),
  ...Array.from({ length: 12 }, (_, i) => indexDoc(`other-${i}`, `${FILLER.join(' ')} note ${i}`)),
);

describe('the irregular forms', () => {
  it.each([
    ['feel', 'felt'],
    ['take', 'took'],
    ['take', 'taken'],
    ['took', 'taken'],
    ['go', 'went'],
    ['child', 'children'],
    ['person', 'people'],
  ])('list %s and %s as forms of each other, through the index analyzer', (a, b) => {
    expect(IRREGULAR_FORMS.synonyms(term(a))).toContain(term(b));
    expect(IRREGULAR_FORMS.synonyms(term(b))).toContain(term(a));
  });

  // A form that is a word of its own most of the time would bring notes about another thing.
  it.each([
    ['left', 'leave'],
    ['ground', 'grind'],
    ['bit', 'bite'],
    ['thought', 'think'],
    ['leaves', 'leaf'],
  ])('leave out %s, a word in its own right, as a form of %s', (form, word) => {
    expect(IRREGULAR_FORMS.synonyms(term(form))).not.toContain(term(word));
    expect(IRREGULAR_FORMS.synonyms(term(word))).not.toContain(term(form));
  });

  it('is sorted by term, one line each, so a lookup can binary-search it', () => {
    const keys = INFLECTION_TABLE.split('\n').map((line) => line.slice(0, line.indexOf(' ')));
    for (let i = 1; i < keys.length; i++) expect(keys[i - 1]! < keys[i]!).toBe(true);
  });
});

describe('a question in another tense or number than the note', () => {
  it.each([
    ['how did you feel after the surgery', 'felt'],
    ['when does she take the train to Lisbon', 'took'],
    ['what does the man do on Saturdays', 'men'],
  ])(
    '"%s" finds the note that says it otherwise (%s), which the other words alone do not',
    async (question, expected) => {
      expect((await search(vault, question, 1))[0]?.id).toBe(expected);
      expect((await search(vault, question, 0))[0]?.id).not.toBe(expected);
    },
  );

  it('is off at weight 0: a word finds only notes holding its own forms', async () => {
    expect(await search(vault, 'feel', 0)).toEqual([]);
    expect((await search(vault, 'feel', 1)).map((i) => i.id)).toEqual(['felt']);
  });

  it('counts a form as the word itself: full coverage, and the prompt hook injects it', async () => {
    const [item] = await search(vault, 'feel surgery', 1);
    expect(item).toMatchObject({ id: 'felt', coverage: 1, words: 2 });
    expect(memoriesToInject([item!], 5).map((i) => i.id)).toEqual(['felt']);
  });

  it('does not turn a name into a form of a word: Rose is no form of rise', async () => {
    expect((await search(vault, 'Did Rose call on Monday?', 1)).map((i) => i.id)).toEqual(['rose-call']);
    expect((await search(vault, 'the price rose', 1))[0]?.id).toBe('risen');
  });

  it('lists each spelling once: a form the prefix expansion also finds keeps its own weight', () => {
    const state = indexStateOf(indexDoc('t', 'taken takeover take took'));
    const [take] = queryConcepts(queryWords('take'), state.bm25, RANKING_DEFAULTS);
    const terms = take!.variants.map((v) => v.term);
    expect(new Set(terms).size).toBe(terms.length);
    expect(take!.variants.find((v) => v.term === term('taken'))?.weight).toBe(RANKING_DEFAULTS.inflection);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type IndexDocument } from '../../src/memory/documents/document.js';
import { type IndexState } from '../../src/memory/indexing/index-state.js';
import { tokenize } from '../../src/memory/indexing/tokenize.js';
import { rankDocuments } from '../../src/memory/recall/rank.js';
import { phraseShare, revisionFamily } from '../../src/memory/recall/rank-stages.js';
import { nameTerms, queryWords } from '../../src/memory/recall/query-plan.js';
import { RANKING_DEFAULTS } from '../../src/memory/recall/ranking.js';
import { recall } from '../../src/memory/recall/recall.js';
import { indexDoc, indexStateOf as stateOf, RANKING_NOW } from './helpers.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = RANKING_NOW;

/** A memory titled by its file name. */
const doc = (id: string, text: string, over: Partial<IndexDocument> = {}): IndexDocument =>
  indexDoc(id, text, { title: id.replace(/^.*\//, '').replace(/\.md$/, ''), ...over });

const ids = async (state: IndexState, text: string, extra: object = {}) =>
  (await recall({ state }, { text, now: NOW, ...extra })).items.map((i) => i.id);

const FILLER = 'other words about unrelated things here and there ';

describe('the recency prior', () => {
  const base = { k: 50, window: 0, halfLife: HOUR, noteHalfLife: 30 * DAY, wSem: 0.7, wRec: 0.3, now: NOW };
  const docs = (ages: number[]) =>
    ages.map((age, i) => ({
      id: `d${i}`,
      locator: `d${i}`,
      title: `d${i}`,
      owner: '',
      kind: 'fix',
      status: 'active',
      updatedMs: NOW - age * DAY,
    }));

  it('never lifts a match over one more than (1 + recencyBoost) times as relevant, whatever the ages', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ score: fc.double({ min: 0.01, max: 20, noNaN: true }), age: fc.nat(400) }), {
          minLength: 2,
          maxLength: 30,
        }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        (cands, recencyBoost) => {
          const matches = {
            slots: Int32Array.from(cands.map((_, i) => i)),
            scores: Float64Array.from(cands.map((c) => c.score)),
            count: cands.length,
          };
          const ranked = rankDocuments(docs(cands.map((c) => c.age)), matches, undefined, {
            ...base,
            params: { ...RANKING_DEFAULTS, recencyBoost },
          });
          for (let i = 0; i < ranked.length; i++)
            for (let j = i + 1; j < ranked.length; j++)
              expect(ranked[j]!.similarity).toBeLessThanOrEqual(ranked[i]!.similarity * (1 + recencyBoost) + 1e-12);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("orders equal matches newest first, and memQL's formula lets a fresh weaker match overtake", () => {
    const matches = { slots: Int32Array.of(0, 1, 2), scores: Float64Array.of(1, 1, 0.8), count: 3 };
    const three = docs([30, 1, 0]);
    const prior = rankDocuments(three, matches, undefined, { ...base, params: RANKING_DEFAULTS });
    expect(prior.map((r) => r.doc.id)).toEqual(['d1', 'd0', 'd2']);
    const memql = rankDocuments(three, matches, undefined, {
      ...base,
      formula: 'memql',
      halfLife: HOUR,
      noteHalfLife: HOUR,
      params: RANKING_DEFAULTS,
    });
    expect(memql[0]!.doc.id).toBe('d2');
  });
});

describe('fields', () => {
  it('finds a word that is only in the file name or only in the title, above a passing mention in a text', async () => {
    const state = stateOf(
      doc('memory/fix/pnpm-frozen-lockfile.md', `# Install in CI\n\n${FILLER}`, {
        title: 'Install in CI',
        untitled: false,
      }),
      doc('memory/fix/ci-cache.md', `# Heartbeat of the vault lock\n\n${FILLER}`, {
        title: 'Heartbeat of the vault lock',
        untitled: false,
      }),
      doc('memory/fix/mention.md', `${FILLER} the lockfile and the heartbeat came up once ${FILLER}`),
    );
    expect((await ids(state, 'lockfile'))[0]).toBe('memory/fix/pnpm-frozen-lockfile.md');
    expect((await ids(state, 'heartbeat'))[0]).toBe('memory/fix/ci-cache.md');
  });

  it('does not count the first line of a note without a heading as its title', async () => {
    const state = stateOf(
      doc('memory/fix/a.md', `the heartbeat interval is five seconds\n${FILLER}`),
      doc('memory/fix/b.md', `${FILLER.slice(0, 18)}\nthe heartbeat interval is five seconds\n${FILLER.slice(18)}`),
    );
    const r = await recall({ state }, { text: 'heartbeat', now: NOW });
    expect(r.items).toHaveLength(2);
    expect(r.items[0]!.score).toBeCloseTo(r.items[1]!.score, 12);
  });

  it('finds prose by a code identifier and an identifier by prose; an inflection or a prefix by its word', async () => {
    const state = stateOf(
      doc('memory/fix/id.md', `Set \`retryDelayMs\` to 250 in the sync worker. ${FILLER}`),
      doc('memory/fix/prose.md', `The maximum retry count of the uploader is five. ${FILLER}`),
      doc('memory/fix/inflected.md', `Configuring the deployment of the mirror took an afternoon. ${FILLER}`),
      doc('memory/fix/other.md', `${FILLER} retry ${FILLER}`),
    );
    expect((await ids(state, 'retry delay'))[0]).toBe('memory/fix/id.md');
    expect((await ids(state, 'maxRetryCount'))[0]).toBe('memory/fix/prose.md');
    expect((await ids(state, 'configure deploy'))[0]).toBe('memory/fix/inflected.md');
    expect((await ids(state, 'config mirror'))[0]).toBe('memory/fix/inflected.md');
    // Without prefixes and synonyms (the thesaurus lists config/configuration), nothing holds `config`.
    expect(await ids(state, 'config', { ranking: { prefix: 0, synonym: 0 } })).toEqual([]);
  });
});

describe('phrase credit and revisions', () => {
  it('ranks a note holding the query words side by side above one holding them apart', async () => {
    const state = stateOf(
      doc('memory/fix/apart.md', `lock ${FILLER} timeout ${FILLER}`),
      doc('memory/fix/together.md', `${FILLER} lock timeout ${FILLER}`),
    );
    expect(await ids(state, 'lock timeout', { ranking: { phrase: 0.2 } })).toEqual([
      'memory/fix/together.md',
      'memory/fix/apart.md',
    ]);
  });

  it('puts the latest revision of a note first, whatever else is newer, and the earlier revisions below it', async () => {
    const state = stateOf(
      doc('desk/projects/p/convention/use-pnpm.md', 'use pnpm workspaces with the frozen lockfile in ci', {
        updatedMs: NOW - 90 * DAY,
      }),
      doc('desk/projects/p/convention/use-pnpm-v2.md', 'pnpm workspaces, lockfile checked in ci', {
        updatedMs: NOW - 30 * DAY,
      }),
      doc('desk/projects/p/fix/lockfile-noise.md', 'the lockfile diff noise in pnpm', { updatedMs: NOW - DAY }),
    );
    const got = await ids(state, 'pnpm workspaces frozen lockfile');
    expect(got.indexOf('desk/projects/p/convention/use-pnpm-v2.md')).toBeLessThan(
      got.indexOf('desk/projects/p/convention/use-pnpm.md'),
    );
    expect(got[0]).toBe('desk/projects/p/convention/use-pnpm-v2.md');
  });

  it.each([
    ['memory/fix/x-v2.md', 'memory/fix/x'],
    ['memory/fix/x-revised.md', 'memory/fix/x'],
    ['memory/fix/x-2026-03-01.md', 'memory/fix/x'],
    ['memory/fix/x-2.md', 'memory/fix/x'],
    ['memory/fix/session-15.md', 'memory/fix/session'],
  ])('reads the revision family of %s as %s', (id, family) => {
    expect(revisionFamily({ id, locator: id, kind: 'fix' })?.family).toBe(family);
  });

  it('does not take a numbered series for revisions of one note', async () => {
    const state = stateOf(
      doc('memory/reference/chat-session-03.md', 'we adopted a beagle puppy named biscuit', {
        updatedMs: NOW - 90 * DAY,
      }),
      doc('memory/reference/chat-session-09.md', 'biscuit chewed a shoe', { updatedMs: NOW - DAY }),
    );
    expect((await ids(state, 'adopted beagle puppy biscuit'))[0]).toBe('memory/reference/chat-session-03.md');
  });

  it('does not take notes named by date (a chat per day, daily notes) for revisions of one note', async () => {
    const state = stateOf(
      doc(
        'memory/reference/jon-nate-2024-11-11.md',
        'Jon: Yesterday I took the new camera out for a long photography walk',
        {
          updatedMs: NOW - 200 * DAY,
        },
      ),
      doc('memory/reference/jon-nate-2025-05-13.md', 'Jon: Nate!! Finally back. The walk home was long', {
        updatedMs: NOW - DAY,
      }),
    );
    expect((await ids(state, 'when did Jon go on a photography walk'))[0]).toBe(
      'memory/reference/jon-nate-2024-11-11.md',
    );
  });

  it('takes a dated name beside its plain original for its revision', async () => {
    const state = stateOf(
      doc(
        'desk/projects/p/convention/release-policy.md',
        'release policy: tag from main, changelog by hand, weekly train',
        {
          updatedMs: NOW - 90 * DAY,
        },
      ),
      doc('desk/projects/p/convention/release-policy-2026-05-01.md', 'release policy: tag from main', {
        updatedMs: NOW - 10 * DAY,
      }),
    );
    expect((await ids(state, 'release policy changelog weekly train'))[0]).toBe(
      'desk/projects/p/convention/release-policy-2026-05-01.md',
    );
  });
});

describe('reciprocal rank fusion', () => {
  it('ranks the same whatever the scale of the lexical scores or of the cosines (no calibration)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            bm25: fc.integer({ min: 0, max: 20 }),
            cos: fc.integer({ min: -10, max: 10 }).map((c) => c / 10),
          }),
          {
            minLength: 1,
            maxLength: 25,
          },
        ),
        fc.constantFrom(0.001, 0.5, 3, 1000),
        (cands, scale) => {
          const docs = cands.map((_, i) => ({
            id: `d${i}`,
            locator: `d${i}`,
            title: `d${i}`,
            owner: '',
            kind: 'fix',
            status: 'active',
            updatedMs: NOW - i * HOUR,
          }));
          const lexical = cands.map((c, i) => [i, c.bm25] as const).filter(([, s]) => s > 0);
          const rank = (bm25Scale: number, cosScale: number) =>
            rankDocuments(
              docs,
              {
                slots: Int32Array.from(lexical.map(([i]) => i)),
                scores: Float64Array.from(lexical.map(([, s]) => s * bm25Scale)),
                count: lexical.length,
              },
              Float64Array.from(cands.map((c) => c.cos * cosScale)),
              { k: 10, window: 0, halfLife: HOUR, wSem: 0.7, wRec: 0.3, now: NOW, params: RANKING_DEFAULTS },
            ).map((r) => r.doc.id);
          expect(rank(scale, 1)).toEqual(rank(1, 1));
          expect(rank(1, scale)).toEqual(rank(1, 1));
        },
      ),
      { numRuns: 200 },
    );
  });
});
describe('names in a question', () => {
  it.each([
    ['When did Caroline go to the LGBTQ support group?', ['carolin', 'lgbtq']],
    ['How do we tune Postgres for CI?', ['postgr', 'ci']],
    ['Which league did Aisha join?', ['aisha']],
    ['What did we decide. Redis or Memcached?', ['memcach']],
    ['thanks, looks good', []],
    ['Run the tests once more', []],
  ])(
    'reads the names of %j as %j (a capital that opens a sentence is no name, a word in capitals is)',
    (text, terms) => {
      expect([...nameTerms(text)]).toEqual(terms);
    },
  );

  it("puts the note of the person asked about above another person's note about the same thing", async () => {
    // Six people chat; the name asked about is in a sixth of the notes, the other note's word in one.
    const people = ['marcus', 'yuki', 'aisha', 'rosa', 'owen', 'nate'];
    const state = stateOf(
      doc(
        'memory/reference/yuki-2025-03-01-04.md',
        'Yuki: Presented a conference talk about climate policy, people asked so many questions after.',
      ),
      doc(
        'memory/reference/marcus-2025-02-11-07.md',
        'Marcus: I gave a workshop on climate policy today and my hands only shook a little.',
      ),
      ...people.flatMap((p) =>
        Array.from({ length: 20 }, (_, i) =>
          doc(`memory/reference/${p}-2025-01-${String(i + 1).padStart(2, '0')}-01.md`, `${p}: about the weekend ${i}`),
        ),
      ),
    );
    const question = 'When did Marcus hold the climate policy presentation?';
    expect((await ids(state, question))[0]).toBe('memory/reference/marcus-2025-02-11-07.md');
    // Weighed as any other word, the name loses to the rarer word the other note shares.
    expect((await ids(state, question, { ranking: { names: 1 } }))[0]).toBe('memory/reference/yuki-2025-03-01-04.md');
  });
});

describe('phrase credit', () => {
  /** The definition: the share of the query's neighbouring pairs found side by side, in either order. */
  const reference = (terms: readonly string[], text: string) => {
    if (terms.length < 2) return 0;
    const tokens = tokenize(text);
    const pairs = new Set<string>();
    for (let i = 1; i < tokens.length; i++)
      pairs.add(`${tokens[i - 1]} ${tokens[i]}`).add(`${tokens[i]} ${tokens[i - 1]}`);
    let found = 0;
    for (let i = 1; i < terms.length; i++) if (pairs.has(`${terms[i - 1]} ${terms[i]}`)) found++;
    return found / (terms.length - 1);
  };
  const word = fc.constantFrom(
    'Lock',
    'locks',
    'vault',
    'the',
    'Sync',
    'timeout',
    'getUserById',
    'café',
    'ναί',
    'x2',
    'user',
  );

  it('is the share of the query’s neighbouring pairs found side by side, whatever the text', () => {
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 30 }),
        fc.array(word, { maxLength: 5 }),
        fc.constantFrom(' ', ', ', '\n', '-'),
        (text, query, sep) => {
          const terms = queryWords(query.join(' '));
          expect(phraseShare(terms, text.join(sep))).toBe(reference(terms, text.join(sep)));
        },
      ),
      { numRuns: 500 },
    );
  });
});

import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { buildNote, Locator, parseNote, serializeNote } from '../../src/index.js';
import { evolveNote } from '../../src/memory/notes/evolve.js';
import { saveNote } from '../../src/memory/notes/save.js';
import { type Vocabulary } from '../../src/memory/notes/vocabulary.js';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import type { BeliefDraft } from '../../src/memory/consolidation/belief-store.js';
import { beliefNoteFields } from '../../src/memory/consolidation/note-belief-store.js';
import { patchNoteFields } from '../../src/memory/notes/patch.js';
import { findFrontmatter, withFrontmatterStatus } from '../../src/harness/plan/frontmatter.js';
import { splitLines } from '../../src/harness/plan/lines.js';
import { renderPlan } from '../../src/harness/planner/plan-render.js';
import { fastFrontmatter } from '../../src/memory/notes/fast-frontmatter.js';
import { yamlFlowList, yamlScalar } from '../../src/memory/notes/yaml-scalar.js';

/** The frontmatter block of a file written by AgentM (between the first two `---` lines). */
function frontmatterOf(text: string): string {
  const lines = text.split('\n');
  expect(lines[0]).toBe('---');
  const close = lines.indexOf('---', 1);
  expect(close).toBeGreaterThan(0);
  return lines.slice(1, close).join('\n');
}

/** A strict YAML 1.2 reading (core schema: typed booleans and numbers), refusing duplicate keys and any error. */
function strict12(yaml: string): Record<string, unknown> {
  return parseYaml(yaml, { version: '1.2', schema: 'core', strict: true, uniqueKeys: true }) as Record<string, unknown>;
}

/**
 * The YAML 1.1 reading (PyYAML's dialect: `yes`, `on`, `0777`, `1:20`, dates are no strings there),
 * without the date-valued keys, which agentm writes plain as dates on purpose.
 */
function reading11(yaml: string, dateKeys: readonly string[]): Record<string, unknown> {
  const data = parseYaml(yaml, { version: '1.1', strict: true, uniqueKeys: true }) as Record<string, unknown>;
  for (const key of dateKeys) delete data[key];
  return data;
}

/** Every frontmatter AgentM writes must read back the same through both readers, and the fast reader must agree. */
function expectReadsBack(text: string, expected: Record<string, unknown>, dateKeys: readonly string[] = []): void {
  const yaml = frontmatterOf(text);
  expect(strict12(yaml)).toEqual(expected);
  const withoutDates = { ...expected };
  for (const key of dateKeys) delete withoutDates[key];
  expect(reading11(yaml, dateKeys)).toEqual(withoutDates);
  const fast = fastFrontmatter(yaml);
  if (fast !== undefined) expect(fast).toEqual(parseYaml(yaml, { schema: 'failsafe' }));
}

/** Text that trips YAML: indicators first, `: ` and ` #` inside, quotes, YAML 1.1/1.2 keywords, numbers, unicode. */
const TRICKY = [
  ...':#,[]{}"\'`!&*?|>%@=~+-.()/\\<> _é€😀',
  'yes',
  'no',
  'on',
  'off',
  'null',
  'true',
  'True',
  '~',
  '007',
  '0o17',
  '0x1F',
  '1_000',
  '1:20',
  '.5',
  '1e5',
  '.inf',
  '2026-11-25',
  ': ',
  ' #',
  '- ',
  '<<',
];
const tricky = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: fc.constantFrom(...TRICKY), maxLength: 6 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom(...TRICKY) },
);
/** A one-line string (no line breaks or other control characters). */
const oneLine = tricky.map((s) => s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ''));
/** Kebab names (what kind, slug, group and tags allow), including the YAML words and numbers that match `^[a-z0-9-]+$`. */
const kebab = fc.oneof(
  fc.constantFrom(
    'yes',
    'no',
    'on',
    'off',
    'null',
    'true',
    'false',
    'y',
    'n',
    '007',
    '0',
    '1e5',
    '-',
    '--',
    '1-2',
    '0x1f',
  ),
  fc.stringMatching(/^[a-z0-9-]{1,8}$/),
);
const SAVED_DATE_KEYS = ['created', 'updated'];

describe('every frontmatter AgentM writes is valid YAML that reads back as written (property)', () => {
  it('notes: arbitrary sources, supersedes, fingerprints, provenance; YAML-word kinds, slugs, groups and tags', () => {
    fc.assert(
      fc.property(
        fc.record({
          kind: kebab,
          slug: kebab,
          group: fc.array(kebab, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')),
          tags: fc.array(kebab, { maxLength: 4 }),
          sourceUrl: fc.option(oneLine, { nil: undefined }),
          supersedes: fc.option(oneLine, { nil: undefined }),
          fingerprint: fc.option(oneLine, { nil: undefined }),
          derivedFrom: fc.array(tricky, { maxLength: 3 }),
          alwaysLoad: fc.boolean(),
        }),
        (input) => {
          const vocabulary: Vocabulary = { types: [input.kind], recordKinds: [], retired: {} };
          const note = buildNote({ ...input, body: 'Body.\n' }, { vocabulary, now: new Date(2026, 10, 25) });
          const expected: Record<string, unknown> = {
            type: input.kind,
            status: 'active',
            altitude: 'artifact',
            created: '2026-11-25',
            updated: '2026-11-25',
            tags: input.tags,
            group: input.group,
            slug: input.slug,
            ...(input.sourceUrl !== undefined ? { source_url: input.sourceUrl } : {}),
            fingerprint: input.fingerprint ?? parseNote(note.content).fingerprint,
            always_load: input.alwaysLoad,
            ...(input.supersedes !== undefined ? { supersedes: input.supersedes } : {}),
            ...(input.derivedFrom.length > 0 ? { derived_from: input.derivedFrom } : {}),
          };
          expectReadsBack(note.content, expected, SAVED_DATE_KEYS);
          const parsed = parseNote(note.content);
          expect(parsed.frontmatterError).toBeUndefined();
          expect([parsed.slug, parsed.group, parsed.tags, parsed.supersedes, parsed.derivedFrom]).toEqual([
            input.slug,
            input.group,
            input.tags,
            input.supersedes,
            input.derivedFrom,
          ]);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('beliefs: created and patched with arbitrary provenance', () => {
    fc.assert(
      fc.property(
        fc.array(tricky, { maxLength: 4 }),
        fc.array(tricky, { maxLength: 4 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (first, second, confidence) => {
          const draft: BeliefDraft = {
            owner: 'agentm',
            kind: 'fact',
            statement: 'The lock times out.',
            confidence: 0.5,
            reinforceCount: 1,
            derivedFrom: first,
            createdMs: Date.UTC(2026, 0, 5, 10),
          };
          const fields = beliefNoteFields(draft, {
            type: 'reference',
            group: 'desk/projects/agentm',
            slug: 'the-lock',
          });
          const text = serializeNote(fields, draft.statement);
          const dates = ['created', 'updated', 'last_reinforced'];
          const expected = { ...fields } as Record<string, unknown>;
          if (first.length === 0) delete expected['derived_from'];
          expectReadsBack(text, expected, dates);
          const patched = patchNoteFields(text, { derived_from: second, confidence, reinforce_count: 2 });
          const after = { ...expected, confidence, reinforce_count: 2 } as Record<string, unknown>;
          if (second.length === 0) delete after['derived_from'];
          else after['derived_from'] = second;
          expectReadsBack(patched, after, dates);
          expect(parseNote(patched).derivedFrom).toEqual(second);
        },
      ),
      { numRuns: 800 },
    );
  });

  it('archives: evolve with an arbitrary reason (line breaks folded to spaces) and new slug', async () => {
    await fc.assert(
      fc.asyncProperty(tricky, kebab, async (reason, tag) => {
        fc.pre(reason.trim() !== '');
        const backend = new MemoryBackend();
        const saved = await saveNote(
          backend,
          { kind: 'workflow', slug: 'x', body: 'old\n', tags: [tag], supersedes: 'memory/_archive/a: b #c.md' },
          { now: new Date(2026, 5, 1) },
        );
        const { archive, note } = await evolveNote(
          backend,
          { locator: saved.locator, body: 'new\n', reason },
          { now: new Date(2026, 5, 2) },
        );
        const archived = await backend.read(archive);
        const oneLineReason = reason.replace(/\s+/g, ' ').trim();
        const dates = ['created', 'updated', 'superseded_at'];
        expectReadsBack(
          archived,
          {
            ...strict12(frontmatterOf(saved.content)),
            status: 'superseded',
            superseded_by: 'memory/workflow/x.md',
            superseded_at: '2026-06-02',
            superseded_reason: oneLineReason,
          },
          dates,
        );
        expectReadsBack(
          await backend.read(note.locator),
          { ...strict12(frontmatterOf(note.content)), supersedes: archive.key },
          SAVED_DATE_KEYS,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('plans: a goal of any text, and any status change', () => {
    fc.assert(
      fc.property(tricky, fc.constantFrom('open', 'done', 'failed', 'cancelled'), (goal, status) => {
        const text = renderPlan(goal, [], new Date(Date.UTC(2026, 10, 25, 10)));
        const flat = goal.replace(/\s+/g, ' ').trim();
        const expected = { goal: flat, status: 'open', created: '2026-11-25T10:00:00.000Z' };
        expectReadsBack(text, expected, ['created']);
        const lines = splitLines(text);
        const changed = withFrontmatterStatus(lines, findFrontmatter(lines), status)
          .map((l) => l.text + l.eol)
          .join('');
        expectReadsBack(changed, { ...expected, status }, ['created']);
      }),
      { numRuns: 800 },
    );
  });

  it('words and paths (a letter first, no indicator) are plain unless YAML reads them as a boolean or null', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.stringMatching(/^[A-Za-z][A-Za-z0-9_./-]{0,12}$/),
          fc.constantFrom('Yes', 'NO', 'on', 'Off', 'y', 'N', 'True', 'false', 'Null', 'NULL', 'nan', 'inf', 'e5'),
        ),
        (word) => {
          const text = `k: ${yamlScalar(word)}\nl: ${yamlFlowList([word, 'x'])}`;
          expect(strict12(text)).toEqual({ k: word, l: [word, 'x'] });
          expect(reading11(text, [])).toEqual({ k: word, l: [word, 'x'] });
          if (!/^[eE][-+]?\d+$/.test(word))
            expect(yamlScalar(word).startsWith("'")).toBe(/^(y|n|yes|no|on|off|true|false|null)$/i.test(word));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("keeps agentm's bytes where agentm writes plain (DESIGN §12)", () => {
    const note = buildNote(
      {
        kind: 'decision',
        slug: 'pick-stdlib',
        group: 'desk/projects/agentm',
        tags: ['a', 'b'],
        body: 'Body line one\r\nline two\n\n\n',
        supersedes: 'memory/_archive/memory/workflow/x.md.20260601.md',
        sourceUrl: 'https://example.com/a?b=c#frag',
      },
      { now: new Date(2026, 10, 25) },
    );
    expect(frontmatterOf(note.content).split('\n')).toEqual([
      'type: convention',
      'status: active',
      'altitude: artifact',
      'created: 2026-11-25',
      'updated: 2026-11-25',
      'tags: [a, b]',
      'group: desk/projects/agentm',
      'slug: pick-stdlib',
      'source_url: https://example.com/a?b=c#frag',
      'fingerprint: 414bbdebd606ba28278f037719343b26953e34e16953a7187d6242817d208421',
      'always_load: false',
      'supersedes: memory/_archive/memory/workflow/x.md.20260601.md',
    ]);
  });

  it("quotes the evolve reason of the issue as agentm's evolve does", async () => {
    const backend = new MemoryBackend();
    const saved = await saveNote(backend, { kind: 'fix', slug: 'lock', body: 'old\n' }, { now: new Date(2026, 5, 1) });
    const { archive } = await evolveNote(backend, {
      locator: saved.locator,
      body: 'new\n',
      reason: 'superseded: the lock moved #2',
    });
    expect(await backend.read(archive)).toContain("\nsuperseded_reason: 'superseded: the lock moved #2'\n");
    expect(parseNote(await backend.read(archive)).frontmatterError).toBeUndefined();
  });

  it('refuses what a UTF-8 file cannot hold (a lone surrogate), writing nothing', async () => {
    const backend = new MemoryBackend();
    await expect(saveNote(backend, { kind: 'fix', slug: 's', body: 'b\n', supersedes: 'bad\ud800' })).rejects.toThrow(
      /lone UTF-16 surrogate/,
    );
    expect(await backend.exists(new Locator('memory/fix/s.md'))).toBe(false);
  });
});

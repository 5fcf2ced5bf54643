import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildNote, parseNote, serializeNote } from '../../src/index.js';
import { DEFAULT_VOCABULARY, resolveKind, vocabularyFromConfig } from '../../src/memory/notes/vocabulary.js';
import { NoteValidationError, UnknownKindError } from '../../src/memory/notes/errors.js';
import { noteFingerprint } from '../../src/memory/notes/fingerprint.js';
import { casefold } from '../../src/memory/notes/casefold.js';

const NOV25 = new Date(2026, 10, 25, 12, 0, 0);

describe('note format (DESIGN §12)', () => {
  it('reproduces the example byte for byte', () => {
    const note = buildNote(
      {
        kind: 'decision',
        slug: 'pick-stdlib',
        group: 'desk/projects/agentm',
        tags: ['a', 'b'],
        body: 'Body line one\r\nline two\n\n\n',
      },
      { now: NOV25 },
    );
    expect(note.locator.key).toBe('desk/projects/agentm/convention/pick-stdlib.md');
    expect(note.content).toBe(
      '---\ntype: convention\nstatus: active\naltitude: artifact\ncreated: 2026-11-25\nupdated: 2026-11-25\ntags: [a, b]\n' +
        'group: desk/projects/agentm\nslug: pick-stdlib\nfingerprint: 414bbdebd606ba28278f037719343b26953e34e16953a7187d6242817d208421\n' +
        'always_load: false\n---\n\nBody line one\r\nline two\n',
    );
  });

  it('writes record kinds as kind:, defaults the group to memory, [] for no tags, and files always-load notes apart', () => {
    const brief = buildNote({ kind: 'brief', slug: 'b', body: 'x' }, { now: NOV25 });
    expect(brief.locator.key).toBe('memory/brief/b.md');
    expect(brief.content).toMatch(/^---\nkind: brief\nstatus: active\n/);
    expect(brief.content).toContain('\ntags: []\ngroup: memory\n');
    const always = buildNote(
      { kind: 'preference', slug: 'tabs', group: 'desk/projects/x', body: 'tabs\n', alwaysLoad: true },
      { now: NOV25 },
    );
    expect(always.locator.key).toBe('memory/_always-load/tabs.md');
    expect(always.content).toContain('\ngroup: desk/projects/x\n');
    expect(always.content).toContain('\nalways_load: true\n');
  });

  it('keeps the locked order for optional keys and omits an empty derived_from', () => {
    const text = serializeNote(
      {
        derived_from: ['a.md', 'b.md'],
        supersedes: 'memory/_archive/x.md.20260101.md',
        type: 'fix',
        confidence: 0.5,
        lifecycle_tier: 'durable',
        always_load: false,
      },
      'b',
    );
    expect(text).toBe(
      '---\ntype: fix\nalways_load: false\nsupersedes: memory/_archive/x.md.20260101.md\nlifecycle_tier: durable\nderived_from: [a.md, b.md]\nconfidence: 0.5\n---\n\nb\n',
    );
    expect(serializeNote({ type: 'fix', derived_from: [] }, '')).toBe('---\ntype: fix\n---\n\n\n');
  });

  it('body: trailing LFs become exactly one; leading space and inner CRLF are kept', () => {
    expect(
      buildNote({ kind: 'fix', slug: 's', body: '  indented\r\n\r\nkept\r\n\n\n' }, { now: NOV25 }).content.endsWith(
        '\n\n  indented\r\n\r\nkept\r\n',
      ),
    ).toBe(true);
  });
});

describe('validation names the argument and the pattern', () => {
  it.each([
    [{ kind: 'Decision', slug: 's' }, 'kind', /\^\[a-z0-9-\]\+\$/],
    [{ kind: 'fix', slug: 'Bad Slug' }, 'slug', /slug "Bad Slug"/],
    [{ kind: 'fix', slug: 's', group: 'desk//x' }, 'group', /\(\/\[a-z0-9-\]\+\)\*/],
    [{ kind: 'fix', slug: 's', group: '/abs' }, 'group', /group/],
    [{ kind: 'fix', slug: 's', tags: ['ok', 'Not OK'] }, 'tag', /tag "Not OK"/],
    [{ kind: 'fix', slug: 's', lifecycleTier: 'forever' }, 'lifecycle_tier', /durable or volatile/],
  ])('%j', (input, argument, message) => {
    const error = (() => {
      try {
        buildNote({ body: 'b', ...input } as never);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(NoteValidationError);
    expect((error as NoteValidationError).argument).toBe(argument);
    expect((error as Error).message).toMatch(message);
  });
});

describe('vocabulary', () => {
  it.each([
    ['decision', 'type', 'convention'],
    ['domain-reference', 'type', 'reference'],
    ['preferences', 'type', 'preference'],
    ['runbook', 'type', 'workflow'],
    ['howto', 'type', 'workflow'],
    ['pattern', 'type', 'workflow'],
    ['workflow-pattern', 'type', 'workflow'],
    ['insight', 'type', 'idea'],
    ['gap', 'type', 'idea'],
    ['fix', 'type', 'fix'],
    ['failure-incident', 'kind', 'failure-incident'],
    ['telemetry', 'kind', 'telemetry'],
  ])('%s files as %s: %s', (kind, field, value) => {
    expect(resolveKind(kind)).toMatchObject({ field, value });
  });

  it('refuses a name in neither register, listing the valid types', () => {
    const error = (() => {
      try {
        resolveKind('musing');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(UnknownKindError);
    expect(error?.message).toContain('Valid memory types: preference, convention, reference, workflow, fix, idea');
  });

  it('is data: config can replace it', () => {
    const vocab = vocabularyFromConfig({ 'memory.vocabulary': { types: ['note'], retired: { memo: 'note' } } });
    expect(resolveKind('memo', vocab)).toMatchObject({ field: 'type', value: 'note', retiredFrom: 'memo' });
    expect(() => resolveKind('fix', vocab)).toThrow(UnknownKindError);
    expect(vocabularyFromConfig({})).toBe(DEFAULT_VOCABULARY);
  });
});

describe('fingerprint', () => {
  it('hello → 2cf24dba…, and matches Python agentm on whitespace, blank lines and Unicode', () => {
    expect(noteFingerprint('hello')).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    // Expected values computed with agentm's normalization in CPython 3.11.
    expect(noteFingerprint('  Hello \t\tWorld  \r\n\r\n\x0bSECOND\x0cline\r\n')).toBe(
      'e4cb60423f317111c864796c8a727bcd38b41c9f7a4f9597f47c23987b9aae18',
    );
    expect(noteFingerprint('\ufeffBOM line\n\x1c sep \x1c\n\x85nel\x85')).toBe(
      'e75c80908bd4a656c9fc6a948134e2fbd79f869eeaeaab116832f6966b44fb09',
    );
  });

  it.each([
    ['Straße ﬁne ΣΑΣ ς', 'strasse fine σασ σ'],
    ['ı İ ẞ', 'ı i̇ ss'],
    ['ꭰᏸ Ꭰ', 'ᎠᏰ Ꭰ'],
    ['µ ſ ᾀ ŉ', 'μ s ἀι ʼn'],
    ['Ǆ ǅ K Ω', 'ǆ ǆ k ω'],
  ])('casefold(%j) = Python casefold', (text, folded) => {
    expect(casefold(text)).toBe(folded);
  });

  it('ignores case, spacing, line endings and blank lines (property)', () => {
    const line = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ]{0,20}[A-Za-z0-9]$/);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const plain = lines.join('\n');
        const noisy = lines.map((l) => `  ${l.toUpperCase().replace(/ /g, ' \t ')}\t`).join('\r\n\r\n') + '\n\n';
        return noteFingerprint(plain) === noteFingerprint(noisy);
      }),
    );
  });
});

describe('parseNote', () => {
  it('reads back every field the serializer writes, and the body', () => {
    const note = buildNote(
      {
        kind: 'insight',
        slug: 'k',
        group: 'desk/projects/p',
        tags: ['x', 'y'],
        body: 'B\r\nody\n',
        derivedFrom: ['a.md'],
        confidence: 0.75,
        reinforceCount: 2,
        supersedes: 'memory/_archive/z.md',
      },
      { now: NOV25 },
    );
    const parsed = parseNote(note.content);
    expect(parsed).toMatchObject({
      kindField: 'type',
      kind: 'idea',
      status: 'active',
      created: '2026-11-25',
      updated: '2026-11-25',
      tags: ['x', 'y'],
      group: 'desk/projects/p',
      slug: 'k',
      alwaysLoad: false,
      supersedes: 'memory/_archive/z.md',
      derivedFrom: ['a.md'],
      confidence: 0.75,
      reinforceCount: 2,
      body: 'B\r\nody\n',
      frontmatterError: undefined,
    });
    expect(parsed.fingerprint).toBe(noteFingerprint('B\r\nody\n'));
  });

  it('round-trips any valid save (property)', () => {
    const name = fc.stringMatching(/^[a-z0-9-]{1,12}$/);
    fc.assert(
      fc.property(name, fc.array(name, { maxLength: 4 }), fc.string(), fc.boolean(), (slug, tags, body, alwaysLoad) => {
        const note = buildNote({ kind: 'fix', slug, tags, body, alwaysLoad }, { now: NOV25 });
        const parsed = parseNote(note.content);
        return (
          parsed.slug === slug &&
          JSON.stringify(parsed.tags) === JSON.stringify(tags) &&
          parsed.alwaysLoad === alwaysLoad &&
          parsed.body === note.content.split('---\n\n').slice(1).join('---\n\n')
        );
      }),
    );
  });

  it('never throws: no frontmatter is all body; bad YAML is reported', () => {
    expect(parseNote('# just markdown\n')).toMatchObject({
      hasFrontmatter: false,
      body: '# just markdown\n',
      fields: {},
    });
    const bad = parseNote('---\ntags: [a, b\n---\n\nbody\n');
    expect(bad.frontmatterError).toBeDefined();
    expect(bad.body).toBe('body\n');
    expect(parseNote('---\nkind: brief\nalways_load: true\n---\nno blank line\n')).toMatchObject({
      kindField: 'kind',
      kind: 'brief',
      alwaysLoad: true,
      body: 'no blank line\n',
    });
  });
});

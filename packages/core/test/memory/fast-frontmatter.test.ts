import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { fastFrontmatter } from '../../src/memory/notes/fast-frontmatter.js';
import { parseNote } from '../../src/memory/notes/parse.js';

const yamlFields = (text: string): unknown => parseYaml(text, { schema: 'failsafe' });

describe('the fast frontmatter reader', () => {
  it("reads agentm's frontmatter exactly as the YAML parser does", () => {
    const text = [
      'type: convention',
      'status: active',
      'created: 2026-11-25',
      'tags: [a, b-c, build-tools]',
      'group: desk/projects/agentm',
      'slug: 007',
      'fingerprint: 414bbdebd606ba28278f037719343b26953e34e16953a7187d6242817d208421',
      'always_load: false',
      'derived_from: [desk/projects/agentm/_harness/progress.md#0123456789abcdef, memory/fix/x.md]',
      'confidence: 0.65',
      'last_reinforced: 2026-01-05T10:02:00.000Z',
      'source_url: https://example.com/a?b=c',
      'empty: []',
    ].join('\n');
    expect(fastFrontmatter(text)).toEqual(yamlFields(text));
    expect(fastFrontmatter(text)!['slug']).toBe('007');
  });

  it.each([
    'tags: [-]',
    'a: b: c',
    "title: 'quoted'",
    'a: x #comment',
    'a: [x,y]',
    'a: &anchor x',
    'a: b\na: c',
    'a: |',
    'a:',
    'a:  two spaces',
    'a: [ x ]',
    '  a: x',
    'a: x\n\nb: y',
    'a: tab\there',
    'a: c1\u0080control',
    'a: non\ufffecharacter',
    'a: lone\ud800surrogate',
    'a: line\u2028separator',
  ])('declines %j (the YAML parser decides)', (text) => {
    expect(fastFrontmatter(text)).toBeUndefined();
  });

  it('never disagrees with the YAML parser (property)', () => {
    const chars = fc.constantFrom(
      ...'aZ09-_./:#,[]{}"\'` !&*?|>%@=~+()é<>\\\u00a0\u3000\u0080\u200b\ufffe\u0301'.split(''),
      '😀',
    );
    const word = fc.oneof(
      fc.string({ unit: chars, minLength: 1, maxLength: 12 }),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 5 }),
      fc.constantFrom('~', 'null', 'yes', '007', '-', '- a', '? x', 'a?', '=', '<<', '...', 'a ... b'),
    );
    const value = fc.oneof(
      word,
      fc.array(word, { maxLength: 4 }).map((ws) => `[${ws.join(', ')}]`),
    );
    const line = fc
      .tuple(fc.constantFrom('type', 'tags', 'slug', 'derived_from', 'x.y', 'a_b'), value)
      .map(([k, v]) => `${k}: ${v}`);
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const text = lines.join('\n');
        const fast = fastFrontmatter(text);
        if (fast === undefined) return true;
        expect(fast).toEqual(yamlFields(text));
        return true;
      }),
      { numRuns: 3000 },
    );
  });

  it('parseNote gives the same note either way', () => {
    const note = '---\ntype: fix\nstatus: active\ntags: [a, b]\nslug: x\n---\n\nBody\n';
    const slow = '---\ntype: fix\nstatus: active\ntags: [a, b]\nslug: x\nnote: "forces YAML"\n---\n\nBody\n';
    const { fields: f1, ...a } = parseNote(note);
    const { fields: f2, ...b } = parseNote(slow);
    expect(a).toEqual(b);
    expect({ ...f1, note: 'forces YAML' }).toEqual(f2);
  });
});

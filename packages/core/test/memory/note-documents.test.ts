import { describe, expect, it } from 'vitest';
import { Locator } from '../../src/index.js';
import { noteToDocument } from '../../src/memory/note-documents.js';

const info = (mtimeMs: number) => ({ locator: new Locator('x'), isDir: false, size: 0, mtimeMs });

describe('noteToDocument (notes in agentm format → index documents)', () => {
  it('reads the DESIGN §12 example note', () => {
    const text = [
      '---',
      'type: convention',
      'status: active',
      'altitude: artifact',
      'created: 2026-11-25',
      'updated: 2026-11-25',
      'tags: [a, b]',
      'group: desk/projects/agentm',
      'slug: pick-stdlib',
      'fingerprint: 414bbdebd606ba28278f037719343b26953e34e16953a7187d6242817d208421',
      'always_load: false',
      '---',
      '',
      'Body line one\r\nline two\n',
    ].join('\n');
    const doc = noteToDocument(new Locator('desk/projects/agentm/convention/pick-stdlib.md'), text, info(0));
    expect(doc).toMatchObject({
      id: 'desk/projects/agentm/convention/pick-stdlib.md',
      owner: 'agentm',
      kind: 'convention',
      status: 'active',
      tags: ['a', 'b'],
      alwaysLoad: false,
      title: 'Body line one',
      fingerprint: '414bbdebd606ba28278f037719343b26953e34e16953a7187d6242817d208421',
    });
    expect(doc.createdMs).toBe(new Date(2026, 10, 25).getTime());
    expect(doc.text).toContain('line two');
  });

  it('takes a belief’s recency from last_reinforced and keeps its confidence and provenance', () => {
    const text =
      '---\ntype: reference\nstatus: pruned\nupdated: 2026-01-01\nderived_from: [a#1, b#2]\nconfidence: 0.35\nreinforce_count: 2\nlast_reinforced: 2026-03-04T05:06:07.000Z\n---\n\n# Builds need Node 20\n';
    const doc = noteToDocument(new Locator('desk/projects/demo/reference/builds.md'), text, info(0));
    expect(doc).toMatchObject({
      status: 'pruned',
      confidence: 0.35,
      derivedFrom: ['a#1', 'b#2'],
      title: 'Builds need Node 20',
    });
    expect(doc.updatedMs).toBe(Date.parse('2026-03-04T05:06:07.000Z'));
  });

  it('falls back to the layout and mtime for a note without frontmatter', () => {
    const doc = noteToDocument(
      new Locator('memory/_always-load/house-rules.md'),
      'Always run the tests.\n',
      info(1234),
    );
    expect(doc).toMatchObject({
      owner: '',
      alwaysLoad: true,
      status: 'active',
      createdMs: 1234,
      updatedMs: 1234,
      title: 'Always run the tests.',
    });
  });
});

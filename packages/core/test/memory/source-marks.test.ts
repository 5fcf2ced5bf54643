import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyMarks, marksChange, RACY, type MarksDelta } from '../../src/memory/indexing/source-marks.js';

const folderKey = fc.constantFrom('', 'memory', 'memory/fix', 'desk/projects/p', 'desk/projects/p/fix', 'inbox');
const folders = fc.dictionary(folderKey, fc.oneof(fc.constant(RACY), fc.integer({ min: 0, max: 5 })));
const conflicts = fc.dictionary(folderKey, fc.uniqueArray(fc.constantFrom('a (conflict).md', 'b.sync-conflict.md')));

describe('marksChange: a full walk persisted as what changed', () => {
  it('brings the marks to the same state as the whole listing would', () => {
    fc.assert(
      fc.property(folders, conflicts, folders, conflicts, (f0, c0, f1, c1) => {
        const prev = applyMarks({}, { folders: f0, conflicts: c0, allFolders: true });
        const walk: MarksDelta = { folders: f1, conflicts: c1, allFolders: true, walkedMs: 7, walkMs: 3 };
        expect(applyMarks(prev, marksChange(prev, walk))).toEqual(applyMarks(prev, walk));
      }),
    );
  });

  it('writes nothing of the folders a walk found as they were', () => {
    const prev = applyMarks(
      {},
      { folders: { memory: 5, 'memory/fix': 6 }, conflicts: { memory: ['a (conflict).md'] } },
    );
    const change = marksChange(prev, {
      folders: { memory: 5, 'memory/fix': 6 },
      conflicts: { memory: ['a (conflict).md'] },
      allFolders: true,
      walkedMs: 9,
    });
    expect(change).toEqual({ folders: {}, conflicts: {}, allFolders: false, walkedMs: 9 });
  });
});

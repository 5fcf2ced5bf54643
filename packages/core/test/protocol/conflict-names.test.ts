import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  agentmConflictName,
  isConflictName,
  recognizeConflictName,
  RULES,
} from '../../src/write-protocol/conflict-names.js';

describe('recognizeConflictName: unambiguous patterns', () => {
  it.each([
    ['notes (agentm conflict laptop 20261125143005).md', 'agentm', 'notes.md'],
    ['PLAN (agentm conflict my-box 20260101000000).md', 'agentm', 'PLAN.md'],
    ['notes.sync-conflict-20261125-143005-ABCDEFG.md', 'syncthing', 'notes.md'],
    ['PLAN-foo.sync-conflict-20260102-030405-Q7RZ2AB.md', 'syncthing', 'PLAN-foo.md'],
    ["notes (Alex's conflicted copy 2026-11-25).md", 'conflicted-copy', 'notes.md'],
    ["notes (Alex's conflicted copy 2026-11-25 (1)).md", 'conflicted-copy', 'notes.md'],
    ['notes (conflicted copy 2026-11-25 143005).md', 'conflicted-copy', 'notes.md'],
    ['notes (Conflicted copy laptop 202611251430).md', 'conflicted-copy', 'notes.md'],
    ['PLAN-foo (conflicted copy 2026-06-01).md', 'conflicted-copy', 'PLAN-foo.md'],
    ['notes (conflicted copy 2026-06-01) - MacBook.md', 'conflicted-copy', 'notes.md'],
    ['notes [Conflict].md', 'bracket-conflict', 'notes.md'],
    ['notes [Conflict 2].md', 'bracket-conflict', 'notes.md'],
    ['Copy of notes.md', 'copy-of', 'notes.md'],
    ['notes.Conflict.md', 'resilio', 'notes.md'],
    ['notes.Conflict1.md', 'resilio', 'notes.md'],
    ['notes.Conflict 3.md', 'resilio', 'notes.md'],
    ['notes.md.conflict1', 'rclone', 'notes.md'],
    ['notes.conflict2.md', 'rclone', 'notes.md'],
    ['notes.md..path1', 'rclone', 'notes.md'],
  ])('%s → %s of %s', (name, family, original) => {
    const match = recognizeConflictName(name);
    expect(match?.family).toBe(family);
    expect(match?.original).toBe(original);
    expect(match?.ambiguous).toBe(false);
  });
});

describe('recognizeConflictName: ambiguous patterns need the original beside them', () => {
  it.each([
    ['notes (1).md', 'numbered', 'notes.md'],
    ['notes 2.md', 'icloud', 'notes.md'],
    ['notes-DESKTOP-4F2K9Q1.md', 'onedrive', 'notes.md'],
    ['my-notes-LAPTOP7.md', 'onedrive', 'my-notes.md'],
  ])('%s is a %s copy of %s only when %s exists', (name, family, original) => {
    expect(recognizeConflictName(name)).toBeUndefined();
    expect(recognizeConflictName(name, () => false)).toBeUndefined();
    const match = recognizeConflictName(name, (candidate) => candidate === original);
    expect(match?.family).toBe(family);
    expect(match?.original).toBe(original);
    expect(match?.ambiguous).toBe(true);
  });
});

describe('look-alikes that are not conflicts', () => {
  it.each([
    ['report (2026).md', ['report (2026).md']],
    ['report (2026).md', ['notes.md']],
    ['PLAN-foo.md', ['PLAN.md', 'PLAN-foo.md']],
    ['progress-worker.md', ['progress.md']],
    ['Chapter 1.md', ['Chapter.md']],
    ['notes.md', ['notes.md']],
    ['conflict-resolution.md', []],
    ['my conflicted copy notes.md', []],
    ['notes.md', []],
    ['.notes.md.1234.0123456789abcdef.tmp', []],
  ])('%s (siblings %j) is not a conflict copy', (name, siblings) => {
    expect(isConflictName(name, siblings)).toBe(false);
  });
});

describe('agentmConflictName', () => {
  it('names a copy the recognizer maps back to its original', () => {
    const when = new Date(2026, 10, 25, 14, 30, 5);
    const name = agentmConflictName('PLAN-foo.md', 'Dev Box (2)', when);
    expect(name).toBe('PLAN-foo (agentm conflict Dev-Box-2 20261125143005).md');
    expect(recognizeConflictName(name)).toMatchObject({ family: 'agentm', original: 'PLAN-foo.md' });
  });

  it('handles names without an extension and empty device names', () => {
    const name = agentmConflictName('README', '', new Date(2026, 0, 2, 3, 4, 5));
    expect(name).toBe('README (agentm conflict device 20260102030405)');
    expect(recognizeConflictName(name)?.original).toBe('README');
  });
});

describe('Google Drive copies of a numbered copy', () => {
  it('"Copy of PLAN (1).md" is a copy of PLAN.md, as agentm infers its base (the (N) is stripped, then "Copy of")', () => {
    expect(recognizeConflictName('Copy of PLAN (1).md')).toMatchObject({
      family: 'copy-of',
      original: 'PLAN.md',
      ambiguous: false,
    });
    expect(recognizeConflictName('copy of notes (12).md')?.original).toBe('notes.md');
    expect(isConflictName('Copy of PLAN (1).md', ['PLAN.md'])).toBe(true);
  });

  it('keeps a numbered original that really exists beside the copy ("report (2026).md")', () => {
    expect(recognizeConflictName('Copy of report (2026).md', (n) => n === 'report (2026).md')?.original).toBe(
      'report (2026).md',
    );
    expect(recognizeConflictName('Copy of report (2026).md', (n) => n === 'report.md')?.original).toBe('report.md');
  });
});

describe("recognizeConflictName's hints", () => {
  // A walk asks every rule of every file name; a rule runs its regex only when its hint holds. A hint
  // that missed a name its regex matches would index a conflict copy as a note.
  const FRAGMENTS = [
    'notes',
    'PLAN',
    '.md',
    ' ',
    '-',
    '(',
    ')',
    '[',
    ']',
    '1',
    '7',
    '2026-11-25',
    '20261125143005',
    '20261125-143005',
    ' (agentm conflict laptop ',
    '.sync-conflict-',
    'conflicted copy',
    'CONFLICTED Copy',
    '[conflict',
    '[CONFLICT',
    'copy of ',
    'Copy Of ',
    '.Conflict',
    '.conflict',
    '..path',
    'DESKTOP',
    'é',
    'İ',
  ];
  it('never skips a rule whose pattern matches', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 3 })), { maxLength: 8 }),
        (parts) => {
          const name = parts.join('');
          for (const rule of RULES)
            if (rule.match(name) !== undefined)
              expect(rule.hint(name, name.toLowerCase()), `${rule.family}: ${name}`).toBe(true);
        },
      ),
      { numRuns: 5000 },
    );
  });
});

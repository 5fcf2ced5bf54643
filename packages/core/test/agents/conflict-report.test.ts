import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { findConflictCopies } from '../../src/workspace/conflict-copies.js';
import { memoryLayoutFromConfig } from '../../src/memory/documents/layout-config.js';

describe('the session-start conflict report', () => {
  it('names PLAN.md as the base of Drive\'s "Copy of PLAN (1).md", and "PLAN (1).md" when that file is there', async () => {
    const backend = new MemoryBackend();
    const put = (key: string) => backend.write(backend.resolve(key), '- [x] build\n');
    await put('desk/projects/p/_harness/PLAN.md');
    await put('desk/projects/p/_harness/Copy of PLAN (1).md');
    await put('desk/projects/q/_harness/PLAN.md');
    await put('desk/projects/q/_harness/PLAN (1).md');
    await put('desk/projects/q/_harness/Copy of PLAN (1).md');
    const copies = await findConflictCopies(backend, memoryLayoutFromConfig({}));
    expect(copies.sort((a, b) => a.copy.localeCompare(b.copy))).toEqual([
      { copy: 'desk/projects/p/_harness/Copy of PLAN (1).md', base: 'desk/projects/p/_harness/PLAN.md' },
      { copy: 'desk/projects/q/_harness/Copy of PLAN (1).md', base: 'desk/projects/q/_harness/PLAN (1).md' },
      { copy: 'desk/projects/q/_harness/PLAN (1).md', base: 'desk/projects/q/_harness/PLAN.md' },
    ]);
  });
});

import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';
import { InvalidStateFileNameError } from '../../src/state/errors.js';
import { readStateFile, readStateFileWithHash, writeStateFile } from '../../src/state/state-files.js';
import { stateLocation } from '../../src/state/state-location.js';
import { contentHash } from '../../src/write-protocol/content-hash.js';
import { harnessStateDir } from '../../src/state/state-files.js';
import { withStateLock } from '../../src/state/state-lock.js';
import { stateWorld } from './helpers.js';

describe('state routing (DESIGN §7)', () => {
  it('a synced backend holds state in <project>/_harness/ through the backend', async () => {
    const w = await stateWorld({ vault: true });
    const res = await w.resolve();
    expect(await harnessStateDir(res)).toBe(join(w.memoryRoot, 'desk', 'projects', 'proj', '_harness'));
    const path = await writeStateFile(res, 'PLAN.md', '# plan\r\n');
    expect(path).toBe(join(w.memoryRoot, 'desk', 'projects', 'proj', '_harness', 'PLAN.md'));
    expect(await readFile(path, 'utf8')).toBe('# plan\r\n');
  });

  it('.project-mode=local beats a synced backend', async () => {
    const w = await stateWorld({ vault: true });
    await writeFile(join(w.repo, '.harness', '.project-mode'), ' LOCAL\n');
    const res = await w.resolve();
    expect(await harnessStateDir(res)).toBe(join(w.repo, '.harness'));
    await writeStateFile(res, 'progress.md', 'entry\n');
    expect(await readFile(join(w.repo, '.harness', 'progress.md'), 'utf8')).toBe('entry\n');
  });

  it('config state_mode local wins too, and the repo marker beats the config', async () => {
    const w = await stateWorld({ vault: true, config: { state_mode: 'local' } });
    expect((await stateLocation(await w.resolve())).kind).toBe('local');
    await writeFile(join(w.repo, '.harness', '.project-mode'), 'vault');
    expect((await stateLocation(await w.resolve())).kind).toBe('backend');
  });

  it('a backend without sync (device-local) keeps state in the repo', async () => {
    const w = await stateWorld();
    const res = await w.resolve();
    expect(res.selection?.protocol).toBe('device-local');
    expect(await harnessStateDir(res)).toBe(join(w.repo, '.harness'));
  });

  it('an absent file reads as "" with hash null; bytes round-trip exactly on both routes', async () => {
    for (const vault of [true, false]) {
      const res = await (await stateWorld({ vault })).resolve();
      expect(await readStateFileWithHash(res, 'PLAN-x.md')).toMatchObject({ content: '', hash: null });
      await writeStateFile(res, 'PLAN-x.md', 'a\r\nb\rc\n');
      expect(await readStateFile(res, 'PLAN-x.md')).toBe('a\r\nb\rc\n');
    }
  });

  it.each(['', '.', '..', 'a/b', '../PLAN.md', 'a\\b', 'x\0y', ' PLAN.md'])(
    'refuses the state file name %j',
    async (name) => {
      const res = await (await stateWorld()).resolve();
      await expect(writeStateFile(res, name, 'x')).rejects.toBeInstanceOf(InvalidStateFileNameError);
      await expect(readStateFile(res, name)).rejects.toBeInstanceOf(InvalidStateFileNameError);
    },
  );

  it('CAS on both routes: a stale hash is refused and the file kept; the right hash lands', async () => {
    for (const vault of [true, false]) {
      const res = await (await stateWorld({ vault })).resolve();
      const path = await writeStateFile(res, 'PLAN.md', '- [ ] step\n', { expectHash: null });
      await expect(writeStateFile(res, 'PLAN.md', 'again\n', { expectHash: null })).rejects.toBeInstanceOf(
        ConcurrentModificationError,
      );
      const read = await readStateFileWithHash(res, 'PLAN.md');
      await writeFile(path, '- [x] step (edited by hand)\n');
      await expect(writeStateFile(res, 'PLAN.md', '- [/] step\n', { expectHash: read.hash })).rejects.toBeInstanceOf(
        ConcurrentModificationError,
      );
      expect(await readFile(path, 'utf8')).toBe('- [x] step (edited by hand)\n');
      await writeStateFile(res, 'PLAN.md', '- [/] step\n', {
        expectHash: contentHash('- [x] step (edited by hand)\n'),
      });
      expect(await readFile(path, 'utf8')).toBe('- [/] step\n');
    }
  });

  it('withStateLock makes a read-check-write claim atomic: of 6 concurrent claimants exactly one wins', async () => {
    for (const vault of [true, false]) {
      const res = await (await stateWorld({ vault })).resolve();
      await writeStateFile(res, 'PLAN.md', '- [ ] step\n');
      const claim = (who: number) =>
        withStateLock(res, async () => {
          const { content, hash } = await readStateFileWithHash(res, 'PLAN.md');
          if (!content.includes('[ ]')) return false;
          await writeStateFile(res, 'PLAN.md', `- [/] step [agent:: ${who}]\n`, { expectHash: hash });
          return true;
        });
      const results = await Promise.all([0, 1, 2, 3, 4, 5].map(claim));
      expect(results.filter(Boolean)).toHaveLength(1);
    }
  });
});

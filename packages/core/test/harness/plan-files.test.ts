import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { VaultBackend } from '../../src/backends/vault.js';
import { makeObservation } from '../../src/harness/observations/observation.js';
import { parseProgress } from '../../src/harness/observations/progress-format.js';
import { BackendPlanFiles, planNameOf } from '../../src/harness/reconciler/backend-plan-files.js';
import { LocalPlanFiles } from '../../src/harness/reconciler/local-plan-files.js';
import type { PlanFiles } from '../../src/harness/reconciler/plan-files.js';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';

const obs = (text: string) => makeObservation({ kind: 'note', step: 's', actor: 'me', text });

async function local() {
  const dir = await tempDir();
  const files = new LocalPlanFiles(
    join(dir, 'repo', '.harness', 'PLAN-x.md'),
    join(dir, 'repo', '.harness', 'progress-x.md'),
    { lock: { lockRoot: join(dir, 'locks') }, debounceMs: 10 },
  );
  return { files, foreignWrite: (text: string) => writeFile(files.planPath, text) };
}

async function vault() {
  const dir = await tempDir();
  const backend = new VaultBackend({ root: join(dir, 'vault'), lockRoot: join(dir, 'locks') });
  const files = new BackendPlanFiles(
    backend,
    backend.resolve('desk', 'projects', 'p', '_harness', 'PLAN.md'),
    backend.resolve('desk', 'projects', 'p', '_harness', 'progress.md'),
  );
  return {
    files,
    backend,
    foreignWrite: (text: string) => writeFile(join(dir, 'vault', 'desk', 'projects', 'p', '_harness', 'PLAN.md'), text),
  };
}

describe.each([
  ['LocalPlanFiles', local],
  ['BackendPlanFiles over the vault backend', vault],
] as Array<[string, () => Promise<{ files: PlanFiles; foreignWrite: (t: string) => Promise<void> }>]>)(
  '%s',
  (_name, make) => {
    it('creates a plan only when absent and appends observations keeping earlier bytes', async () => {
      const { files } = await make();
      expect(await files.readPlan()).toBeUndefined();
      expect(await files.readProgress()).toBe('');
      await files.commit({ plan: { text: '- [ ] a\n', expectHash: null }, observations: [obs('one')] });
      await expect(files.commit({ plan: { text: 'other\n', expectHash: null } })).rejects.toBeInstanceOf(
        ConcurrentModificationError,
      );
      const before = await files.readProgress();
      await files.commit({ observations: [obs('two'), obs('three')] });
      const after = await files.readProgress();
      expect(after.startsWith(before)).toBe(true);
      expect(parseProgress(after).map((o) => o.text)).toEqual(['one', 'two', 'three']);
      expect((await files.readPlan())!.text).toBe('- [ ] a\n');
    });

    it('a foreign edit between read and commit loses the CAS: nothing is overwritten and nothing is appended', async () => {
      const { files, foreignWrite } = await make();
      await files.commit({ plan: { text: '- [ ] a\n', expectHash: null } });
      const snap = (await files.readPlan())!;
      await foreignWrite('- [x] a (edited by a person)\n');
      await expect(
        files.commit({ plan: { text: '- [/] a\n', expectHash: snap.hash }, observations: [obs('claim')] }),
      ).rejects.toBeInstanceOf(ConcurrentModificationError);
      expect((await files.readPlan())!.text).toBe('- [x] a (edited by a person)\n');
      expect(await files.readProgress()).toBe('');
    });
  },
);

describe('plan files specifics', () => {
  it('names plans after their file', () => {
    expect([planNameOf('PLAN.md'), planNameOf('PLAN-build.md'), planNameOf('PLAN-PLAN-x.md')]).toEqual([
      'PLAN',
      'build',
      'PLAN-x',
    ]);
  });

  it('a vault commit waits for the vault lock held by another writer', async () => {
    const { files, backend } = await vault();
    const order: string[] = [];
    let release!: () => void;
    const held = backend.withLock(() => new Promise<void>((r) => (release = () => (order.push('holder done'), r()))));
    const committing = files.commit({ plan: { text: 'x\n', expectHash: null } }).then(() => order.push('commit done'));
    // Both asked in this tick: the holder has the lock, the commit is queued behind it. Whenever the
    // holder lets go, the commit lands after it (no pause needed to make that so).
    await new Promise((r) => setImmediate(r));
    release();
    await Promise.all([held, committing]);
    expect(order).toEqual(['holder done', 'commit done']);
  });

  it('the local watcher reports changes to the plan or progress file', async () => {
    const { files } = await local();
    await files.commit({ plan: { text: 'a\n', expectHash: null } });
    const changed = new Promise<void>((resolve) => {
      const stop = files.watch((() => (stop(), resolve())) as () => void);
    });
    await files.commit({ observations: [obs('ping')] });
    await changed;
    expect(await readFile(files.progressPath, 'utf8')).toContain('ping');
  });
});

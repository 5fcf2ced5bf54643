import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inspectLock } from '@agentm/core/write-protocol';
import { tempDir } from './helpers/temp.js';
import { FIXTURES, spawnProcess } from './helpers/processes.js';

const RUNS = 5;

async function setup() {
  const dir = await tempDir();
  const root = join(dir, 'Vault', 'Agent');
  const lockRoot = join(dir, 'locks');
  await mkdir(join(root, 'desk'), { recursive: true });
  const target = join(root, 'desk', 'note.md');
  await writeFile(target, 'v0\n');
  return { root, lockRoot, target };
}

/** A vault writer that stops itself (SIGSTOP) right after its final re-hash of the target, before its rename. */
function pausedWriter(s: Awaited<ReturnType<typeof setup>>, content: string) {
  return spawnProcess(
    process.execPath,
    [
      '--import',
      FIXTURES + 'pause-at-rehash.mjs',
      FIXTURES + 'vault-writer.mjs',
      s.root,
      s.lockRoot,
      'desk/note.md',
      content,
    ],
    { AGENTM_TEST_PAUSE_FILE: s.target, AGENTM_TEST_PAUSE_AT_READ: '2' },
  );
}

const writer = (s: Awaited<ReturnType<typeof setup>>, content: string) =>
  spawnProcess(process.execPath, [FIXTURES + 'vault-writer.mjs', s.root, s.lockRoot, 'desk/note.md', content, '40000']);

describe('a holder paused between its final re-hash and its rename (issue 11, item 6)', () => {
  it(`never overwrites a writer that took the lock over meanwhile (${RUNS} runs at once): 0 lost acknowledged writes`, async () => {
    const runs = await Promise.all(
      Array.from({ length: RUNS }, async (_, i) => {
        const s = await setup();
        const a = pausedWriter(s, `A${i}\n`);
        await a.waitForLine(/^paused$/);
        // B waits until A's heartbeat is older than the stale window (10 s), takes the lock over and writes.
        const b = await writer(s, `B${i}\n`).exited;
        a.child.kill('SIGCONT');
        const resumed = await a.exited;
        const final = await readFile(s.target, 'utf8');
        const acknowledged = [resumed.code === 0 ? `A${i}\n` : undefined, b.code === 0 ? `B${i}\n` : undefined];
        // An acknowledged write is lost when neither it nor a later acknowledged write is what is on disk.
        return { i, a: resumed, b, final, lost: acknowledged.filter((w) => w !== undefined && w !== final).length };
      }),
    );
    for (const r of runs) {
      expect(r.b.code, r.b.stderr).toBe(0);
      expect(r.final, `run ${r.i}`).toBe(`B${r.i}\n`);
      expect(r.a.code, `run ${r.i}: the paused writer must refuse`).toBe(1);
      expect(r.a.stderr).toMatch(/^error ELOCKCOMPROMISED .*lost while held/m);
    }
    expect(runs.reduce((n, r) => n + r.lost, 0)).toBe(0);
  }, 60_000);

  it('completes its write when nobody took the lock over during the pause', async () => {
    const s = await setup();
    const a = pausedWriter(s, 'A\n');
    await a.waitForLine(/^paused$/);
    // Until its heartbeat is past the stale window (10 s of real time), with nobody waiting to take it over.
    while (!(await inspectLock(s.root, { lockRoot: s.lockRoot })).stale) await new Promise((r) => setTimeout(r, 100));
    a.child.kill('SIGCONT');
    const resumed = await a.exited;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await readFile(s.target, 'utf8')).toBe('A\n');
  }, 60_000);
});

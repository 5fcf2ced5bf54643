import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { groupAlive, processStartFingerprint } from '../../src/harness/command-exec/process-groups.js';
import { RunRecords } from '../../src/harness/command-exec/run-records.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0))
    if (c.pid)
      try {
        process.kill(-c.pid, 'SIGKILL');
      } catch {
        /* gone */
      }
});

/** A detached sleeper leading its own process group, as a step's command does. */
function sleeper(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { detached: true, stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

describe.skipIf(process.platform === 'win32')('run records of a step', () => {
  it('a recorded group still running is ended and waited for, and its record goes', async () => {
    const root = await tempDir();
    const records = new RunRecords(root).forStep('/repo', 'PLAN', 'key');
    const pid = sleeper();
    records.add(pid, ['node', '-e', '…']);
    expect(records.list().map((r) => [r.pid, r.pgid, r.start === processStartFingerprint(pid)])).toEqual([
      [pid, pid, true],
    ]);
    expect(await records.reap()).toEqual([{ pgid: pid, argv: ['node', '-e', '…'], outcome: 'ended' }]);
    expect(groupAlive(pid)).toBe(false);
    expect(records.list()).toEqual([]);
  });

  it('a record whose pid now belongs to a later process is not ours: nothing is killed', async () => {
    const root = await tempDir();
    const records = new RunRecords(root).forStep('/repo', 'PLAN', 'key');
    const pid = sleeper();
    mkdirSync(records.dir, { recursive: true });
    writeFileSync(
      join(records.dir, `${pid}.json`),
      JSON.stringify({ pid, pgid: pid, start: 'another-start', argv: ['x'], startedAt: '', owner: 1 }),
    );
    expect((await records.reap()).map((r) => r.outcome)).toEqual(['not-ours']);
    expect(groupAlive(pid)).toBe(true);
    expect(readdirSync(records.dir)).toEqual([]);
  });

  it('a record of a group that is gone is simply forgotten; records are per step', async () => {
    const root = await tempDir();
    const all = new RunRecords(root);
    const a = all.forStep('/repo', 'PLAN', 'a');
    const b = all.forStep('/repo', 'PLAN', 'b');
    expect(a.dir).not.toBe(b.dir);
    const pid = sleeper();
    a.add(pid, ['x']);
    process.kill(-pid, 'SIGKILL');
    while (groupAlive(pid)) await new Promise((r) => setTimeout(r, 10)); // until the kernel has reaped it
    expect(await b.reap()).toEqual([]);
    expect((await a.reap()).map((r) => r.outcome)).toEqual(['gone']);
  });
});

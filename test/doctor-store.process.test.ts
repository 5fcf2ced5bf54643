import { spawnSync } from 'node:child_process';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockDirFor } from '@agentm/core/write-protocol';
import { runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

/** A pid no process has any more: a child that already exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

async function vault() {
  const home = await tempDir();
  const root = join(home, 'Vault', 'Agent');
  const dir = join(root, 'desk', 'projects', 'p', '_harness');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'PLAN.md'), '- [ ] one\n');
  const env = { MEMORY_VAULT_PATH: root };
  const lockDir = lockDirFor(root, join(home, '.cache', 'agentm', 'locks'));
  const doctor = (...args: string[]) => runAgentm(['doctor', ...args], { home, env });
  return { home, root, dir, env, lockDir, doctor };
}

async function temp(path: string, ageMs: number): Promise<void> {
  await writeFile(path, 'half a plan');
  const when = (Date.now() - ageMs) / 1000;
  await utimes(path, when, when);
}

describe('leftover temps (issue 11, item 14)', () => {
  it('doctor lists temps older than the lock window whose writer is gone; --fix removes only those', async () => {
    const v = await vault();
    const dead = deadPid();
    const hour = 3_600_000;
    const oldDead = `.PLAN.md.${dead}.0123456789abcdef.tmp`;
    const pythonOldDead = `PLAN.md.${dead}.0123456789abcdef0123456789abcdef.tmp`;
    const young = `.PLAN.md.${dead}.fedcba9876543210.tmp`;
    const oldAlive = `.PLAN.md.${process.pid}.aaaaaaaaaaaaaaaa.tmp`;
    await temp(join(v.dir, oldDead), hour);
    await temp(join(v.dir, pythonOldDead), hour);
    await temp(join(v.dir, young), 1000);
    await temp(join(v.dir, oldAlive), hour);

    const report = await v.doctor();
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toMatch(/temps \[WARN\] 2 leftover temp file\(s\)/);
    expect(report.stdout).toContain(`desk/projects/p/_harness/${oldDead} (writer pid ${dead}`);
    expect(report.stdout).toContain(`desk/projects/p/_harness/${pythonOldDead}`);
    expect(report.stdout).not.toContain(young);
    expect(report.stdout).not.toContain(oldAlive);
    expect((await readdir(v.dir)).length).toBe(5); // doctor alone removes nothing

    const fixed = await v.doctor('--fix');
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/temps \[OK\] removed 2 leftover temp file\(s\) under the lock/);
    expect((await readdir(v.dir)).sort()).toEqual([oldAlive, young, 'PLAN.md'].sort());
    expect((await v.doctor()).stdout).toContain('temps [OK] no leftover temp files');
  }, 60_000);
});

describe('a lock stamped in the future (issue 11, item 7)', () => {
  it('doctor reports it, how writers treat it and how to remove it', async () => {
    const v = await vault();
    await mkdir(dirname(v.lockDir), { recursive: true });
    await mkdir(v.lockDir);
    const ahead = (Date.now() + 3_600_000) / 1000;
    await utimes(v.lockDir, ahead, ahead);
    const report = await v.doctor();
    expect(report.stdout).toMatch(/lock \[WARN\] .*heartbeat is 3[56]\d\d\.\d s in the future/);
    expect(report.stdout).toContain(`rmdir ${v.lockDir}`);
  });
});

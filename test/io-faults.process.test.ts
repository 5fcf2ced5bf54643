import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDirFor } from '@agentm/core/write-protocol';
import { runAgentm } from './helpers/cli.js';
import { FIXTURES } from './helpers/processes.js';
import { tempDir } from './helpers/temp.js';

/**
 * Faults are injected into a real agentm process by an LD_PRELOAD shim (test/fixtures/fault-shim.c)
 * compiled here: the chosen libc call fails with the chosen errno for paths under a prefix, and the
 * real code path handles it. Without a C compiler (or on a platform without LD_PRELOAD) the mechanism
 * is unavailable and these tests are skipped.
 */
const shimDir = mkdtempSync(join(tmpdir(), 'agentm-shim-'));
const shim = join(shimDir, 'fault-shim.so');
const built =
  process.platform === 'linux' &&
  spawnSync('cc', ['-shared', '-fPIC', '-o', shim, FIXTURES + 'fault-shim.c', '-ldl'], { stdio: 'ignore' }).status ===
    0;
afterAll(() => rmSync(shimDir, { recursive: true, force: true }));

async function world() {
  const home = await tempDir();
  const vault = join(home, 'vault');
  await mkdir(join(vault, '_meta'), { recursive: true });
  const registry = join(vault, '_meta', 'repos.json');
  await writeFile(registry, '{\n  "version": 1,\n  "repos": []\n}\n');
  const env = { MEMORY_VAULT_PATH: vault, LD_PRELOAD: shim };
  const lockDir = lockDirFor(vault, join(home, '.cache', 'agentm', 'locks'));
  return { home, vault, registry, env, lockDir };
}

const register = (w: Awaited<ReturnType<typeof world>>, env: NodeJS.ProcessEnv) =>
  runAgentm(['repos', 'register', 'demo', '--root', w.home], { home: w.home, env: { ...w.env, ...env } });

describe.skipIf(!built)('I/O errors are errors (issue 11, item 11)', () => {
  it('EIO from the directory fsync after the rename is reported naming the file, not acknowledged', async () => {
    const w = await world();
    const r = await register(w, { AGENTM_FAULT_DIR_FSYNC_EIO: w.vault });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(w.registry);
    expect(r.stderr).toMatch(/EIO/);
    expect(r.stderr).toMatch(/may not be durable/);
  });

  it('EIO removing the lock is reported naming the lock directory, not exit 0', async () => {
    const w = await world();
    const r = await register(w, { AGENTM_FAULT_RMDIR_EIO: w.lockDir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(w.lockDir);
    expect(r.stderr).toMatch(/EIO/);
    // The write itself landed; the message says so and what happens to the lock.
    expect(readFileSync(w.registry, 'utf8')).toContain('"slug": "demo"');
    expect(r.stderr).toMatch(/the write completed/);
  });
});

describe.skipIf(!built)('a full disk names the file (issue 11, item 16)', () => {
  it('ENOSPC writing the temp names the target, keeps the old bytes and leaves no temp', async () => {
    const w = await world();
    const before = readFileSync(w.registry, 'utf8');
    const r = await register(w, { AGENTM_FAULT_WRITE_ENOSPC: w.vault });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(w.registry);
    expect(r.stderr).toMatch(/no space left/i);
    expect(readFileSync(w.registry, 'utf8')).toBe(before);
    expect(readdirSync(join(w.vault, '_meta'))).toEqual(['repos.json']);
    expect(statSync(w.lockDir, { throwIfNoEntry: false })).toBeUndefined();
  });
});

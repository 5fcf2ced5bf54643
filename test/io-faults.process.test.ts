import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_WRITE_LANDED, inspectLock, lockDirFor, withVaultLock } from '@agentm/core/write-protocol';
import { runAgentm } from './helpers/cli.js';
import { buildFaultShim } from './helpers/fault-shim.js';
import { tempDir } from './helpers/temp.js';

/**
 * Faults are injected into a real agentm process by an LD_PRELOAD shim (test/fixtures/fault-shim.c):
 * the chosen libc call fails with the chosen errno for paths under a prefix, and the real code path
 * handles it. Where the shim cannot be built these tests are skipped, saying why.
 */
const shim = buildFaultShim();
const built = shim !== undefined;

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

describe.skipIf(!built)('I/O errors after the write landed (issue 11 item 11, issue 20 §1)', () => {
  it('EIO from the directory fsync after the rename: exit 3, naming the file, saying the new version is in place', async () => {
    const w = await world();
    const r = await register(w, { AGENTM_FAULT_DIR_FSYNC_EIO: w.vault });
    // Not 0 (not acknowledged as durable), not 1 (that reads as "nothing written": an agent retries).
    expect(r.code).toBe(EXIT_WRITE_LANDED);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(w.registry);
    expect(r.stderr).toMatch(/EIO/);
    expect(r.stderr).toMatch(/may not be durable/);
    expect(r.stderr).toMatch(/the new version is in place; do not repeat/);
    expect(readFileSync(w.registry, 'utf8')).toContain('"slug": "demo"');
  });

  it('EIO removing the lock every time: exit 3 saying the write is in place, and the lock left stale for the next writer', async () => {
    const w = await world();
    const r = await register(w, { AGENTM_FAULT_RMDIR_EIO: w.lockDir });
    expect(r.code).toBe(EXIT_WRITE_LANDED);
    expect(r.stderr).toContain(w.lockDir);
    expect(r.stderr).toMatch(/EIO/);
    expect(r.stderr).toMatch(/the new version is in place; do not repeat it/);
    expect(r.stderr).toMatch(/3 attempt\(s\)/);
    expect(r.stderr).toMatch(/marked stale, so the next writer takes it over at once/);
    expect(readFileSync(w.registry, 'utf8')).toContain('"slug": "demo"');
    // The lock is still there (it could not be removed) but reads as dead: the next writer, allowed far
    // less than the 10 s stale window, takes it over instead of timing out.
    const lockRoot = join(w.home, '.cache', 'agentm', 'locks');
    expect((await inspectLock(w.vault, { lockRoot })).stale).toBe(true);
    await expect(withVaultLock(w.vault, async () => 'next', { lockRoot, timeoutMs: 1000 })).resolves.toBe('next');
  });

  it('EIO removing the lock twice, then not: the removal is retried, exit 0, no lock left', async () => {
    const w = await world();
    const r = await register(w, { AGENTM_FAULT_RMDIR_EIO: w.lockDir, AGENTM_FAULT_RMDIR_EIO_TIMES: '2' });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('demo\n');
    expect(statSync(w.lockDir, { throwIfNoEntry: false })).toBeUndefined();
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

import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LockTimeout } from '@agentm/core/write-protocol';
import { lockDirFor, withVaultLock } from '@agentm/core/write-protocol';
import { VaultBackend } from '@agentm/core/backends';
import { tempDir } from './helpers/temp.js';
import { FIXTURES, spawnFixture, spawnProcess } from './helpers/processes.js';

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function setup() {
  const dir = await tempDir();
  const root = join(dir, 'Vault', 'Agent');
  const lockRoot = join(dir, 'cache', 'agentm', 'locks');
  await mkdir(root, { recursive: true });
  return { dir, root, lockRoot, lockDir: lockDirFor(root, lockRoot) };
}

/**
 * 8 writers × 25 increments, all started at once. This once ran 8 × 200 with a 180 s timeout and hit it
 * in one full-suite run out of two (5 s alone). The cause, measured with every lock mkdir/rmdir, rename
 * and fsync of the workers traced (issue 20 §2): the increments are serialized — each is one lock
 * hold, plus about one more for a writer whose read outside the lock went stale — so the test's time is
 * 1 600 × (hold + hand-off). Quiet, that is ~10 ms an increment. Beside other CPU-bound work (the suite's
 * other file, other checkouts' builds) the holder is preempted inside its few synchronous system calls
 * (holds p50 1–7 ms but p90 100–170 ms and up to 650 ms; rename and rmdir also wait on the filesystem
 * journal behind other processes' fsyncs), and for a third of the time the lock stands free while its
 * waiters sleep out their backoff (≤ 200 ms) or wait for a CPU: 800 increments took 70–180 s. Nothing
 * was lost and no lock was taken over; the number of serialized durable writes was the test's own
 * choice. 200 still interleave every writer with the others: the retries below prove the
 * compare-and-swap was contended, not merely taken in turn.
 */
describe('contention between real processes', () => {
  it('8 processes × 25 read–increment–CAS-write cycles, started at once, end at exactly 200', async () => {
    const { root, lockRoot } = await setup();
    const workers = Array.from({ length: 8 }, () => spawnFixture('counter-worker.mjs', [root, lockRoot, '25']));
    await Promise.all(workers.map((w) => w.waitForLine(/^ready$/)));
    for (const w of workers) w.child.stdin!.end('go\n');
    const results = await Promise.all(workers.map((w) => w.exited));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(await readFile(join(root, 'counter.md'), 'utf8')).toBe('200\n');
    expect(await readdir(root)).toEqual(['counter.md']);
    const retries = results.reduce(
      (n, r) => n + (JSON.parse(r.stdout.trim().split('\n').at(-1)!) as { retries: number }).retries,
      0,
    );
    expect(retries, 'no writer ever lost a compare-and-swap: the writers did not really overlap').toBeGreaterThan(0);
  }, 60_000);
});

describe('lock liveness across processes', () => {
  it('a fresh holder makes a second acquirer time out with LockTimeout naming the lock, timeout and heartbeat age', async () => {
    const { root, lockRoot, lockDir } = await setup();
    const holder = spawnFixture('lock-holder.mjs', [root, lockRoot, '10000', 'forever']);
    await holder.waitForLine(/^held /);
    const error = await withVaultLock(root, async () => 'never', { lockRoot, timeoutMs: 1000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LockTimeout);
    const timeout = error as LockTimeout;
    expect(timeout.lockDir).toBe(lockDir);
    expect(timeout.timeoutMs).toBe(1000);
    expect(timeout.heartbeatAgeMs).toBeTypeOf('number');
    expect(timeout.message).toContain(lockDir);
    expect(timeout.message).toMatch(/within 1\.00 s/);
    expect(timeout.message).toMatch(/last heartbeat -?\d+\.\d\d s ago/);
    holder.child.kill('SIGTERM');
    await holder.exited;
  });

  it('the heartbeat keeps a long hold alive past the stale window', async () => {
    const { root, lockRoot } = await setup();
    const holder = spawnFixture('lock-holder.mjs', [root, lockRoot, '2000', '6000']);
    await holder.waitForLine(/^held /);
    // Waiting 4.5 s spans more than two stale windows: without the heartbeat the lock would be taken over.
    await expect(
      withVaultLock(root, async () => 'stolen', { lockRoot, staleMs: 2000, timeoutMs: 4500 }),
    ).rejects.toBeInstanceOf(LockTimeout);
    expect((await holder.exited).code).toBe(0);
  });

  it('a holder killed with SIGKILL leaves its lock, which is respected while fresh and taken over once stale', async () => {
    const { root, lockRoot, lockDir } = await setup();
    const holder = spawnFixture('lock-holder.mjs', [root, lockRoot, '2000', 'forever']);
    await holder.waitForLine(/^held /);
    holder.child.kill('SIGKILL');
    await holder.exited;
    expect(await exists(lockDir)).toBe(true);
    await expect(
      withVaultLock(root, async () => 'too early', { lockRoot, staleMs: 2000, timeoutMs: 300 }),
    ).rejects.toBeInstanceOf(LockTimeout);
    await expect(withVaultLock(root, async () => 'taken over', { lockRoot, staleMs: 2000 })).resolves.toBe(
      'taken over',
    );
    expect(await exists(lockDir)).toBe(false);
  });

  it.each([
    ['SIGTERM', 'forever'],
    ['SIGINT', 'forever'],
    ['process.exit', 'exit'],
  ])('a held lock is removed on %s', async (how, mode) => {
    const { root, lockRoot, lockDir } = await setup();
    const holder = spawnFixture('lock-holder.mjs', [root, lockRoot, '10000', mode]);
    await holder.waitForLine(/^held /);
    expect(await exists(lockDir)).toBe(true);
    if (how === 'process.exit') holder.child.stdin!.write('exit\n');
    else holder.child.kill(how as NodeJS.Signals);
    await holder.exited;
    expect(await exists(lockDir)).toBe(false);
    expect(await exists(join(lockDir, '..'))).toBe(true);
  });
});

describe('crash safety', () => {
  it('40 writers killed with SIGKILL at random moments never leave anything but one complete version', async () => {
    const { root, lockRoot } = await setup();
    const target = join(root, 'desk', 'projects', 'crash', '_harness', 'PLAN.md');
    const complete = (text: string) => {
      const m = /^# crash test\nwriter: (\d+)\nseq: (\d+)\n\n([\s\S]*)\nsha256: ([0-9a-f]{64})\n$/.exec(text);
      return m !== null && createHash('sha256').update(m[3]!).digest('hex') === m[4];
    };
    let seed = 20261126;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const versionsSeen = new Set<string>();
    for (let batch = 0; batch < 4; batch++) {
      const writers = Array.from({ length: 10 }, (_, i) =>
        spawnFixture('crash-writer.mjs', [root, lockRoot, String(batch * 10 + i)]),
      );
      await Promise.all(writers.map((w) => w.waitForLine(/^ready$/)));
      // Once one of them has landed a write (however slow the machine), the kills land at random moments.
      await Promise.any(writers.map((w) => w.waitForLine(/^wrote /)));
      await Promise.all(
        writers.map(
          (w) =>
            new Promise<void>((resolve) =>
              setTimeout(
                () => {
                  w.child.kill('SIGKILL');
                  resolve();
                },
                10 + random() * 250,
              ),
            ),
        ),
      );
      for (const w of writers) {
        const exit = await w.exited;
        // A writer that stopped by itself failed a write: say how, not only that it did.
        expect(exit.signal, `a writer exited by itself (code ${exit.code}): ${exit.stderr}`).toBe('SIGKILL');
      }
      if (await exists(target)) {
        const text = await readFile(target, 'utf8');
        expect(complete(text), `batch ${batch}: torn target`).toBe(true);
        versionsSeen.add(text.split('\n').slice(1, 3).join(' '));
      }
    }
    // The writers made progress (the test exercised real replacements, not just empty runs).
    expect(versionsSeen.size).toBeGreaterThan(1);
    // Killed writers may leave temps behind; listings never show them.
    const backend = new VaultBackend({ root, lockRoot });
    expect((await backend.list(backend.resolve('desk', 'projects', 'crash', '_harness'))).map(String)).toEqual([
      'desk/projects/crash/_harness/PLAN.md',
    ]);
  }, 60_000);
});

describe('interop with Python agentm writers', () => {
  const python = (args: string[], env: NodeJS.ProcessEnv) =>
    spawnProcess('python3', [FIXTURES + 'agentm_vault_lock.py', ...args], env);

  it('computes the same lock directory', async () => {
    const { dir, root } = await setup();
    const env = { XDG_CACHE_HOME: join(dir, 'xdg') };
    const out = await python(['lockdir', root], env).exited;
    expect(out.stdout.trim()).toBe(lockDirFor(root, join(dir, 'xdg', 'agentm', 'locks')));
  });

  it('a Python holder excludes us, and we exclude a Python acquirer', async () => {
    const { dir, root } = await setup();
    const env = { XDG_CACHE_HOME: join(dir, 'xdg') };
    const lockRoot = join(dir, 'xdg', 'agentm', 'locks');
    const py = python(['hold', root, '3'], env);
    await py.waitForLine(/^held /);
    await expect(withVaultLock(root, async () => 'x', { lockRoot, timeoutMs: 500 })).rejects.toBeInstanceOf(
      LockTimeout,
    );
    // Once Python releases, we get in.
    await expect(withVaultLock(root, async () => 'after python', { lockRoot })).resolves.toBe('after python');
    await py.exited;

    const holder = spawnFixture('lock-holder.mjs', [root, lockRoot, '10000', 'forever']);
    await holder.waitForLine(/^held /);
    const pyAcquire = await python(['acquire', root, '0.5'], env).exited;
    expect(pyAcquire.stdout).toMatch(/^timeout /);
    holder.child.kill('SIGTERM');
    await holder.exited;
    expect((await python(['acquire', root, '2'], env).exited).stdout.trim()).toBe('acquired');
  }, 60_000);
});

import { spawn, spawnSync } from 'node:child_process';
import { chmod, chown, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENTM_BIN, runAgentm, type CliResult } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

/**
 * Cache directories owned by another user (what a `sudo agentm` leaves behind) are simulated by
 * running agentm as `nobody` against directories root made with mode 0755. That needs root and
 * util-linux's setpriv; without them the mechanism is unavailable and the tests are skipped.
 */
const NOBODY = 65534;
const canDropPrivileges =
  process.getuid?.() === 0 && spawnSync('setpriv', ['--version'], { stdio: 'ignore' }).status === 0;

function runAsNobody(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('setpriv', [`--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', AGENTM_BIN, ...args], {
      env: { PATH: process.env['PATH'], ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A vault and repo owned by nobody, and a cache a root run of agentm already populated (root-owned, 0755). */
async function afterSudo() {
  const base = await tempDir();
  await chmod(base, 0o755);
  const home = join(base, 'home');
  const vault = join(base, 'vault');
  const repo = join(base, 'repo');
  await mkdir(join(vault, 'memory', 'fix'), { recursive: true });
  await writeFile(join(vault, 'memory', 'fix', 'hello.md'), '---\ntype: fix\nstatus: active\n---\n\nhello world\n');
  await mkdir(join(repo, '.harness'), { recursive: true });
  await writeFile(join(repo, '.harness', 'project.json'), JSON.stringify({ vault_project: 'demo' }));
  await mkdir(home, { recursive: true });
  const env = {
    HOME: home,
    XDG_CACHE_HOME: join(base, 'cache'),
    AGENTM_INSTALL_PREFIX: join(home, '.claude'),
    MEMORY_VAULT_PATH: vault,
  };
  // The root run: a write (makes the vault's lock parent) and a recall (makes the index and its lock parent).
  for (const args of [
    ['repos', 'register', 'demo', '--root', repo],
    ['recall', 'hello', '--all-projects'],
  ]) {
    const r = await runAgentm(args, { home, env });
    expect(r.code, r.stderr).toBe(0);
  }
  // A note written since (a sync, an editor): the next recall has something to catch up with and persist.
  await writeFile(join(vault, 'memory', 'fix', 'later.md'), '---\ntype: fix\nstatus: active\n---\n\nhello again\n');
  for (const dir of [home, vault, repo]) await chownTree(dir);
  // The user's own directory holds the root-owned cache, as ~/.cache/agentm after `sudo agentm` does.
  await chown(base, NOBODY, NOBODY);
  return { env, repo, locks: join(base, 'cache', 'agentm', 'locks'), cache: join(base, 'cache') };
}

async function chownTree(dir: string): Promise<void> {
  const r = spawnSync('chown', ['-R', `${NOBODY}:${NOBODY}`, dir]);
  if (r.status !== 0) await chown(dir, NOBODY, NOBODY);
}

describe.skipIf(!canDropPrivileges)('permission errors on the lock are not contention (issue 11, item 8)', () => {
  it('a write fails at once with a typed error naming the lock directory and the fix', async () => {
    const w = await afterSudo();
    const r = await runAsNobody(['repos', 'register', 'other', '--root', w.repo], w.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/cannot take the lock/);
    expect(r.stderr).toContain(w.locks);
    expect(r.stderr).toContain(`sudo chown -R $USER ${w.cache}`);
    expect(r.stderr).not.toMatch(/^agentm: EACCES/m);
    // "At once", not after a wait: a wait for a contended lock ends in LockTimeout ("could not take the
    // vault lock … within"), never in this error; no clock is needed to tell them apart.
    expect(r.stderr).not.toMatch(/within \d/);
  }, 60_000);

  it('recall fails at once, and recall-here falls back with a warning, instead of waiting 2 minutes for the index lock', async () => {
    const w = await afterSudo();
    const [recall, here] = await Promise.all([
      runAsNobody(['recall', 'hello', '--all-projects'], w.env),
      runAsNobody(['recall-here', '--cwd', w.repo], w.env),
    ]);
    expect(recall.code).toBe(1);
    expect(recall.stderr).toMatch(/cannot take the lock/);
    expect(recall.stderr).toContain(`sudo chown -R $USER ${w.cache}`);
    expect(recall.stderr).not.toMatch(/within \d/);
    expect(here.code, here.stderr).toBe(0);
    expect(here.stderr).toContain(`sudo chown -R $USER ${w.cache}`);
    expect(here.stderr).not.toMatch(/within \d/);
  }, 60_000);
});

import { spawn } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AGENTM_BIN, runAgentm } from './helpers/cli.js';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { fileSnapshot, tempDir } from './helpers/temp.js';

const CORE_VERSION = (
  JSON.parse(await readFile(new URL('../packages/core/package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** A repo (no vault configured) with a runnable PLAN.md whose one step would create `ran.txt`. */
async function repoWithPlan() {
  const home = await tempDir();
  const cwd = join(home, 'repo');
  await mkdir(join(cwd, '.harness'), { recursive: true });
  const plan = '---\ngoal: g\n---\n# Plan\n\n- [ ] touch it [id:: t] [cmd:: touch ran.txt]\n';
  await writeFile(join(cwd, '.harness', 'PLAN.md'), plan);
  return { home, cwd, plan };
}

describe('agentm CLI edges, exactly as agentm (issue 10 item 6)', { timeout: 60_000 }, () => {
  it('repos: a refused selection prints {"skipped": true, "reason": …} on stdout and exits 1, for every subcommand', async () => {
    const w = await agentmWorld();
    await w.writeConfig({ 'storage.backend': 'vault' }); // vault selected, no vault path: refused
    const before = await fileSnapshot(w.home);
    for (const args of [['list'], ['register', 'x', '--root', '/srv/x'], ['unregister', 'x']]) {
      const result = await runAgentm(['repos', ...args], { home: w.home });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toMatch(/^\{"skipped": true, "reason": "select_backend\(\) failed: .*vault_path.*"\}\n$/);
      expect(JSON.parse(result.stdout)).toEqual({ skipped: true, reason: expect.any(String) });
      expect(result.stderr).toBe('');
    }
    expect(await fileSnapshot(w.home)).toEqual(before);
  });

  it('a blank --plan is a usage error (exit 2) for run, trace and replay, never PLAN.md; so is a blank plan --name', async () => {
    const r = await repoWithPlan();
    for (const args of [
      ['run', '--plan', '  ', '--once'],
      ['run', '--plan', ''],
      ['trace', '--plan', ' '],
      ['replay', '--plan', '\t'],
      ['plan', 'Tidy the README', '--name', ' '],
    ]) {
      const result = await runAgentm(args, { home: r.home, cwd: r.cwd });
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(result.stderr).toMatch(/--(plan|name) is blank/);
      expect(result.stdout).toBe('');
    }
    expect(await readFile(join(r.cwd, '.harness', 'PLAN.md'), 'utf8')).toBe(r.plan);
    expect((await readdir(r.cwd)).sort()).toEqual(['.harness']);
    expect(await readdir(join(r.cwd, '.harness'))).toEqual(['PLAN.md']);
  });

  it('--version and -V print the version of @agentm/core', async () => {
    const home = await tempDir();
    for (const flag of ['--version', '-V'])
      expect(await runAgentm([flag], { home })).toEqual({ code: 0, stdout: `${CORE_VERSION}\n`, stderr: '' });
  });

  it('exits quietly (0, nothing on stderr) when the reader of its stdout goes away (a real `| head -1`)', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    // Enough output (≈ 1 MB) that the pipe fills long before agentm is done writing.
    const repos = Array.from({ length: 8000 }, (_, i) => ({
      slug: `repo-${i}`,
      root_path: `/srv/some/long/path/${i}`,
    }));
    await writeFile(join(w.memoryRoot, '_meta', 'repos.json'), JSON.stringify({ version: 1, repos }, null, 2));
    const errFile = join(w.home, 'agentm.err');
    const script = `set -o pipefail; "${AGENTM_BIN}" repos list 2>"${errFile}" | head -1`;
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn('bash', ['-c', script], {
        env: {
          PATH: process.env['PATH'],
          HOME: w.home,
          XDG_CACHE_HOME: join(w.home, '.cache'),
          AGENTM_INSTALL_PREFIX: join(w.home, '.claude'),
        },
      });
      let stdout = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.stdout).toBe('{\n');
    expect(await readFile(errFile, 'utf8')).toBe('');
    expect(result.code).toBe(0);
  });

  it('offer-save-here prints [] on a device-local store (no vault path: agentm is_available() is false)', async () => {
    const w = await agentmWorld();
    const env = { AGENTM_DEVICE_LOCAL_ROOT: join(w.home, 'device') };
    const result = await runAgentm(['offer-save-here', '--kind', 'fix', '--slug', 's', '--cwd', w.repo], {
      home: w.home,
      env,
    });
    expect(result).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });
});

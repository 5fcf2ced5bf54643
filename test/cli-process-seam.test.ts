import { lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';

/** Paths, kinds, bytes and mtimes of everything under `root`. */
async function snapshot(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  if (!(await lstat(root).catch(() => undefined))) return { [root]: 'absent' };
  const walk = async (dir: string) => {
    for (const name of (await readdir(dir)).sort()) {
      const path = join(dir, name);
      const st = await lstat(path);
      out[path] = st.isDirectory()
        ? `dir ${st.mtimeMs}`
        : `file ${st.mtimeMs} ${createHash('sha256')
            .update(await readFile(path))
            .digest('hex')}`;
      if (st.isDirectory()) await walk(path);
    }
  };
  await walk(root);
  return out;
}

/** Runs the CLI and asserts that the vault, the repo and the config are unchanged (paths, bytes, mtimes). */
async function readOnlyRun(w: AgentmWorld, args: string[], stdin = '') {
  const roots = [w.vault, w.repo, join(w.home, '.claude')];
  const before = await Promise.all(roots.map(snapshot));
  const result = await runAgentm(args, { home: w.home, stdin });
  expect(await Promise.all(roots.map(snapshot))).toEqual(before);
  return result;
}

async function seededVault(): Promise<AgentmWorld> {
  const w = await agentmWorld();
  await w.writeConfig(vaultConfig(w));
  await runAgentm(['save', 'preference', 'tabs', '--always-load', '--body-file', '-'], {
    home: w.home,
    stdin: 'Indent with tabs.\n',
  });
  await runAgentm(['save', 'fix', 'ci', '--group', 'desk/projects/proj', '--body-file', '-'], {
    home: w.home,
    stdin: 'Run npm ci, not npm install.\n',
  });
  return w;
}

describe('process seam CLI (black box, read-only)', { timeout: 60_000 }, () => {
  it('recall-here prints the budgeted recall for the project; nothing changes on disk', async () => {
    const w = await seededVault();
    const result = await readOnlyRun(w, ['recall-here', '--cwd', w.repo, '--phase', 'review', '--query', 'ci']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^## Recall · review · proj\n\n### Indent with tabs\.\n/);
    expect(result.stdout).toContain('Indent with tabs.');
    expect(result.stdout).toContain('Run npm ci, not npm install.');
    expect(result.stdout.indexOf('Indent with tabs.')).toBeLessThan(result.stdout.indexOf('Run npm ci'));
    expect((await readOnlyRun(w, ['recall-here', '--cwd', w.repo, '--limit', '3'])).stdout).toBe('');
    expect((await readOnlyRun(w, ['recall-here', '--cwd', w.repo, '--limit', 'lots'])).code).toBe(2);
  });

  it('state-path prints the vault _harness path of the active pair; plan|progress only (else exit 2)', async () => {
    const w = await seededVault();
    expect((await readOnlyRun(w, ['state-path', 'plan', '--cwd', w.repo])).stdout).toBe(
      `${join(w.harness, 'PLAN.md')}\n`,
    );
    expect((await readOnlyRun(w, ['state-path', 'progress', '--cwd', w.repo, '--plan', 'PLAN-x.md'])).stdout).toBe(
      `${join(w.harness, 'progress-x.md')}\n`,
    );
    const bad = await readOnlyRun(w, ['state-path', 'roadmap', '--cwd', w.repo]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/which must be "plan" or "progress"/);
    expect((await readOnlyRun(w, ['state-path', 'plan', '--cwd', w.repo, '--plan', 'a/b'])).code).toBe(2);
  });

  it('offer-save-here prints the enriched candidate as a 2-space JSON array and saves nothing', async () => {
    const w = await seededVault();
    const result = await readOnlyRun(
      w,
      [
        'offer-save-here',
        '--kind',
        'decision',
        '--slug',
        'foo',
        '--cwd',
        w.repo,
        '--phase',
        'plan',
        '--body-file',
        '-',
        '--confidence',
        '0.9',
        '--confidence-reason',
        'tested',
      ],
      'Use pnpm.\n',
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toBe(
      '[\n  {\n    "kind": "decision",\n    "slug": "foo",\n    "body": "Use pnpm.\\n",\n    "confidence": 0.9,\n    "confidence_reason": "tested",\n' +
        '    "project": "proj",\n    "phase": "plan",\n    "target": "desk/projects/proj"\n  }\n]\n',
    );
    expect((await readOnlyRun(w, ['offer-save-here', '--slug', 'foo', '--cwd', w.repo])).code).toBe(2);
    expect(
      (
        await readOnlyRun(w, [
          'offer-save-here',
          '--kind',
          'k',
          '--slug',
          'foo',
          '--confidence',
          'high',
          '--cwd',
          w.repo,
        ])
      ).code,
    ).toBe(2);
  });

  it('exit 0 on every graceful no-op: no project, or the vault not mounted', async () => {
    const w = await agentmWorld();
    await writeFile(join(w.repo, '.harness', 'project.json'), '{}');
    for (const args of [
      ['recall-here', '--cwd', w.repo],
      ['offer-save-here', '--kind', 'fix', '--slug', 's', '--cwd', w.repo],
    ]) {
      const result = await readOnlyRun(w, args);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(args[0] === 'recall-here' ? '' : '[]\n');
    }
    expect(await readOnlyRun(w, ['state-path', 'plan', '--cwd', w.repo])).toMatchObject({
      code: 0,
      stdout: `${join(w.repo, '.harness', 'PLAN.md')}\n`,
    });
    const unmounted = await agentmWorld();
    await unmounted.writeConfig({
      ...vaultConfig(unmounted),
      'plugins.obsidian-vault.vault_path': join(unmounted.home, 'Unmounted'),
    });
    expect(await readOnlyRun(unmounted, ['recall-here', '--cwd', unmounted.repo])).toMatchObject({
      code: 0,
      stdout: '',
    });
    expect(
      await readOnlyRun(unmounted, ['offer-save-here', '--kind', 'fix', '--slug', 's', '--cwd', unmounted.repo]),
    ).toMatchObject({ code: 0, stdout: '[]\n' });
    // state-path must not silently move the plan to the repo: the misconfiguration is reported.
    expect((await readOnlyRun(unmounted, ['state-path', 'plan', '--cwd', unmounted.repo])).code).toBe(1);
    expect(await readdir(unmounted.home)).not.toContain('.agentm');
  });
});

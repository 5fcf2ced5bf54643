import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan } from '@agentm/core';
import { runAgentm } from './helpers/cli.js';
import { tempDir } from './helpers/temp.js';

/** A repo bound to project `demo` and a vault whose memory root is laid out like agentm's. */
async function vaultProject() {
  const home = await tempDir();
  const cwd = join(home, 'repo');
  const memoryRoot = join(home, 'Vault', 'Agent');
  const harness = join(memoryRoot, 'desk', 'projects', 'demo', '_harness');
  await mkdir(join(cwd, '.harness'), { recursive: true });
  await mkdir(harness, { recursive: true });
  await writeFile(join(cwd, '.harness', 'project.json'), JSON.stringify({ vault_project: 'demo' }));
  return { home, cwd, memoryRoot, harness, env: { MEMORY_VAULT_PATH: memoryRoot } };
}

const shellPlan = (marker: string) =>
  `---\ngoal: prove routing\n---\n\n- [ ] write a marker [id:: mark] [cmd:: node -e "require('fs').writeFileSync('${marker}','ok')"]\n`;

describe('harness commands route plans like the state verbs', () => {
  it('a vault-backed project runs the plan in the vault _harness/, not the repo', async () => {
    const p = await vaultProject();
    await writeFile(join(p.harness, 'PLAN.md'), shellPlan('ran.txt'));
    const run = await runAgentm(['run', '--once', '--yes'], { home: p.home, cwd: p.cwd, env: p.env });
    expect([run.code, run.stdout], run.stderr).toEqual([0, 'plan PLAN: done\n']);
    expect(await readFile(join(p.cwd, 'ran.txt'), 'utf8')).toBe('ok');
    expect(parsePlan(await readFile(join(p.harness, 'PLAN.md'), 'utf8')).steps.map((s) => s.stored)).toEqual(['done']);
    expect(await readFile(join(p.harness, 'progress.md'), 'utf8')).toContain('[kind:: transition] [step:: mark]');
    await expect(stat(join(p.cwd, '.harness', 'PLAN.md'))).rejects.toThrow();
  }, 60_000);

  it('follows the active-plan marker, and refuses a dangling one instead of falling back to PLAN.md', async () => {
    const p = await vaultProject();
    await writeFile(join(p.harness, 'PLAN.md'), shellPlan('wrong.txt'));
    await writeFile(join(p.harness, 'PLAN-feature.md'), shellPlan('feature.txt'));
    await writeFile(join(p.cwd, '.harness', 'active-plan'), 'feature\n');
    const run = await runAgentm(['run', '--once', '--yes'], { home: p.home, cwd: p.cwd, env: p.env });
    expect([run.code, run.stdout], run.stderr).toEqual([0, 'plan feature: done\n']);
    expect(await readFile(join(p.cwd, 'feature.txt'), 'utf8')).toBe('ok');
    await expect(stat(join(p.cwd, 'wrong.txt'))).rejects.toThrow();

    await writeFile(join(p.cwd, '.harness', 'active-plan'), 'gone\n');
    const dangling = await runAgentm(['trace'], { home: p.home, cwd: p.cwd, env: p.env });
    expect(dangling.code).toBe(2);
    expect(dangling.stderr).toContain('dangling binding');
  }, 60_000);

  it('a misconfigured vault is an error, never a silent fall-back to the repo', async () => {
    const p = await vaultProject();
    const run = await runAgentm(['run', '--once'], {
      home: p.home,
      cwd: p.cwd,
      env: { MEMORY_VAULT_PATH: join(p.home, 'missing') },
    });
    expect(run.code).not.toBe(0);
    await expect(stat(join(p.cwd, '.harness', 'PLAN.md'))).rejects.toThrow();
  }, 60_000);
});

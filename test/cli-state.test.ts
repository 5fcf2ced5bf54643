import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentm } from './helpers/cli.js';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';

describe('harness state verbs (black box)', { timeout: 60_000 }, () => {
  it('write-state / read-state / plans go to the vault _harness when the vault is selected', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const write = await runAgentm(['write-state', 'PLAN-feature.md', '--cwd', w.repo], {
      home: w.home,
      stdin: '- [ ] step\r\n',
    });
    expect(write.code, write.stderr).toBe(0);
    expect(write.stdout).toBe(`${join(w.harness, 'PLAN-feature.md')}\n`);
    expect(await readFile(join(w.harness, 'PLAN-feature.md'), 'utf8')).toBe('- [ ] step\r\n');
    await writeFile(join(w.harness, 'PLAN.md'), 'main\n');
    await writeFile(join(w.harness, 'PLAN-feature (conflicted copy 2026-06-01).md'), 'copy\n');
    await writeFile(join(w.harness, 'PLAN.archive.20260101.md'), 'old\n');
    await writeFile(join(w.repo, '.harness', 'active-plan'), 'feature\n');
    const read = await runAgentm(['read-state', 'PLAN-feature.md', '--project-root', w.repo], { home: w.home });
    expect(read).toMatchObject({ code: 0, stdout: '- [ ] step\r\n' });
    const plans = await runAgentm(['plans'], { home: w.home, cwd: w.repo });
    expect(plans.stdout).toBe(
      `${join(w.harness, 'PLAN.md')}\n${join(w.harness, 'PLAN-feature.md')}\nactive-binding=feature\n`,
    );
    expect((await runAgentm(['read-state', 'progress.md', '--cwd', w.repo], { home: w.home })).stdout).toBe('');
  });

  it('.harness/.project-mode=local beats the synced vault', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await writeFile(join(w.repo, '.harness', '.project-mode'), 'local\n');
    const write = await runAgentm(['write-state', 'progress.md', '--cwd', w.repo, '--content-file', '-'], {
      home: w.home,
      stdin: 'local entry\n',
    });
    expect(write.stdout).toBe(`${join(w.repo, '.harness', 'progress.md')}\n`);
    expect(await readFile(join(w.repo, '.harness', 'progress.md'), 'utf8')).toBe('local entry\n');
    expect((await runAgentm(['state-path', 'plan', '--cwd', w.repo], { home: w.home })).stdout).toBe(
      `${join(w.repo, '.harness', 'PLAN.md')}\n`,
    );
  });

  it('a dangling active-plan marker is exit 2 with the reason, never PLAN.md', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await writeFile(join(w.harness, 'PLAN.md'), 'main\n');
    await writeFile(join(w.repo, '.harness', 'active-plan'), 'PLAN-gone.md');
    const result = await runAgentm(['state-path', 'plan', '--cwd', w.repo], { home: w.home });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/dangling binding.*refusing to fall back to PLAN\.md/);
  });

  it('write-state refuses unsafe names (exit 2), a stale --expect-hash (exit 1), and an unreadable content file (exit 2)', async () => {
    const w = await agentmWorld();
    expect((await runAgentm(['write-state', '../escape.md', '--cwd', w.repo], { home: w.home, stdin: 'x' })).code).toBe(
      2,
    );
    await runAgentm(['write-state', 'PLAN.md', '--cwd', w.repo], { home: w.home, stdin: 'v1\n' });
    const stale = await runAgentm(['write-state', 'PLAN.md', '--cwd', w.repo, '--expect-hash', 'absent'], {
      home: w.home,
      stdin: 'v2\n',
    });
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/modified concurrently/);
    expect(await readFile(join(w.repo, '.harness', 'PLAN.md'), 'utf8')).toBe('v1\n');
    expect(
      (
        await runAgentm(['write-state', 'PLAN.md', '--cwd', w.repo, '--content-file', join(w.home, 'nope')], {
          home: w.home,
        })
      ).code,
    ).toBe(2);
  });
});

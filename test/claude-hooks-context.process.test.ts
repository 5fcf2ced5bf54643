import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { hookPayload, hookTiming, runHook } from './helpers/claude-hooks.js';
import { runAgentm } from './helpers/cli.js';
import { fileSnapshot } from './helpers/temp.js';

// Content tests raise the hooks' own deadline: this machine is shared, and a late hook adds nothing by design.
const ROOMY = 60_000;

function context(stdout: string, event: string): string {
  const parsed = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(parsed.hookSpecificOutput.hookEventName).toBe(event);
  return parsed.hookSpecificOutput.additionalContext;
}

async function note(world: AgentmWorld, rel: string, fields: string, body: string): Promise<void> {
  await mkdir(join(world.memoryRoot, rel, '..'), { recursive: true });
  await writeFile(join(world.memoryRoot, rel), `---\n${fields}\n---\n\n${body}\n`);
}

let world: AgentmWorld;
beforeEach(async () => {
  world = await agentmWorld();
  await world.writeConfig(vaultConfig(world));
  await note(
    world,
    'memory/_always-load/use-pnpm.md',
    'type: preference\nstatus: active\nalways_load: true',
    '# Use pnpm\n\nAlways use pnpm for installs, never npm; the lockfile is pnpm-lock.yaml.',
  );
  await note(
    world,
    'memory/convention/lock-files.md',
    'type: convention\nstatus: active',
    '# Where the vault lock lives\n\nThe vault lock is a directory under ~/.cache/agentm/locks, never in the vault.',
  );
  await note(
    world,
    'desk/projects/proj/fix/flaky-watch.md',
    'type: fix\nstatus: active',
    '# Flaky watcher test\n\nThe watcher test flaked until the debounce waited for the rename.',
  );
  await writeFile(join(world.harness, 'PLAN.md'), '# Plan\n\n- [ ] first [id:: first]\n');
  await writeFile(join(world.harness, 'PLAN-ship.md'), '---\ngoal: ship\n---\n- [ ] build [id:: build]\n');
  await writeFile(join(world.harness, 'PLAN-docs.md'), '- [ ] write [id:: write]\n');
});

describe('SessionStart hook', () => {
  it('gives the plan and progress paths, the named plans and the always-load memories; conflict copies on stderr', async () => {
    await writeFile(join(world.repo, '.harness', 'active-plan'), 'ship\n');
    await writeFile(join(world.harness, 'PLAN-ship (conflicted copy 2026-11-20).md'), '- [x] build\n');
    const r = await runHook('session-start', world, await hookPayload('session-start', world), { budgetMs: ROOMY });
    expect(r.code).toBe(0);
    const ctx = context(r.stdout, 'SessionStart');
    expect(ctx).toContain(`- Plan: ${join(world.harness, 'PLAN-ship.md')} (bound by .harness/active-plan: ship)`);
    expect(ctx).toContain(`- Progress: ${join(world.harness, 'progress-ship.md')}`);
    expect(ctx).toContain('- Named plans (PLAN-<name>.md in');
    expect(ctx).toMatch(/Named plans .*: docs, ship\n/);
    expect(ctx).toContain('Always use pnpm for installs');
    expect(ctx).not.toContain('Where the vault lock lives'); // not always-load
    expect(ctx).not.toContain('conflicted copy'); // conflicts go to stderr only
    expect(r.stderr).toContain('[conflict-merger] 1 conflict/duplicate file(s) detected (1 in vault):');
    expect(r.stderr).toContain(
      '  [vault] conflict: desk/projects/proj/_harness/PLAN-ship (conflicted copy 2026-11-20).md\n' +
        '          base: desk/projects/proj/_harness/PLAN-ship.md',
    );
    expect(hookTiming(r.stderr)).toMatchObject({ outcome: 'answered', budgetMs: ROOMY });
  });

  it('reports a dangling .harness/active-plan (in the context and on stderr), never falling back to PLAN.md', async () => {
    await writeFile(join(world.repo, '.harness', 'active-plan'), 'gone\n');
    const r = await runHook('session-start', world, await hookPayload('session-start', world), {
      budgetMs: ROOMY,
      env: { HARNESS_CONFLICT_MERGER_MODE: 'off' },
    });
    expect(r.code).toBe(0);
    const ctx = context(r.stdout, 'SessionStart');
    expect(ctx).toContain('- No active plan: .harness/active-plan in');
    expect(ctx).toContain('a dangling binding');
    expect(ctx).not.toContain('- Plan: ');
    expect(r.stderr).toMatch(/agentm: \.harness\/active-plan .* binds plan "gone", but PLAN-gone\.md is missing/);
  });

  it('is silent, exits 0 and writes nothing when the configured vault is not there (an unmounted drive)', async () => {
    await rm(world.vault, { recursive: true, force: true });
    const before = await fileSnapshot(world.home);
    const r = await runHook('session-start', world, await hookPayload('session-start', world), { budgetMs: ROOMY });
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr).not.toMatch(/Error|at .*\.js/);
    expect(await fileSnapshot(world.home)).toEqual(before);
  });

  it('never fails a session: junk on stdin and a corrupt config still exit 0, the problem on stderr', async () => {
    const junk = await runHook('session-start', world, 'not json {', { budgetMs: ROOMY });
    expect(junk.code).toBe(0);
    expect(junk.stderr).toContain('agentm hook: the hook input is not JSON');
    await world.writeConfig('{"storage.backend": ');
    const corrupt = await runHook('session-start', world, await hookPayload('session-start', world), {
      budgetMs: ROOMY,
    });
    expect([corrupt.code, corrupt.stdout]).toEqual([0, '']);
    expect(corrupt.stderr).toMatch(/agentm hook SessionStart: .*\.agentm-config\.json/);
    const unknown = await runHook('pre-tool-use', world, '{}', { budgetMs: ROOMY });
    expect([unknown.code, unknown.stdout]).toEqual([0, '']);
    expect(unknown.stderr).toContain('agentm hook: no event AgentM answers ("pre-tool-use"); give one of SessionStart');
  });

  it("without an event argument it answers the input's hook_event_name", async () => {
    await world.writeConfig(vaultConfig(world));
    const r = await runAgentm(['hook'], {
      home: world.home,
      cwd: world.repo,
      stdin: await hookPayload('session-start', world),
      env: { AGENTM_HOOK_BUDGET_MS: String(ROOMY) },
    });
    expect(r.code).toBe(0);
    expect(context(r.stdout, 'SessionStart')).toContain('Always use pnpm for installs');
  });

  it('within its default 500 ms budget: a whole answer or parts left out whole, never a cut one', async () => {
    const r = await runHook('session-start', world, await hookPayload('session-start', world));
    expect(r.code).toBe(0);
    const timing = hookTiming(r.stderr)!;
    expect(timing.budgetMs).toBe(500);
    if (r.stdout !== '') {
      const ctx = context(r.stdout, 'SessionStart');
      // What is there is whole: each part ends where the full answer's part ends.
      if (ctx.includes('## AgentM plan state')) expect(ctx).toContain('Read the plan before you start');
      if (ctx.includes('### Use pnpm')) expect(ctx).toContain('the lockfile is pnpm-lock.yaml.');
    }
    for (const line of r.stderr.split('\n').filter((l) => l.includes('not read within the session-start budget')))
      expect(line).toMatch(/left out$/);
  });
});

describe('UserPromptSubmit hook', () => {
  const prompt = (text: string) => hookPayload('user-prompt-submit', world, { prompt: text });

  it('adds the top memories for the prompt, with paths to open, and not the always-load ones again', async () => {
    const r = await runHook(
      'user-prompt-submit',
      world,
      await prompt('the watcher test is flaky again; where does the vault lock live? use pnpm'),
      { budgetMs: ROOMY },
    );
    expect(r.code).toBe(0);
    const ctx = context(r.stdout, 'UserPromptSubmit');
    expect(ctx).toContain('## Memories that may bear on this prompt (AgentM)');
    expect(ctx).toContain(
      `**Flaky watcher test** (fix) — ${join(world.memoryRoot, 'desk/projects/proj/fix/flaky-watch.md')}`,
    );
    expect(ctx).toContain(
      `**Where the vault lock lives** (convention) — ${join(world.memoryRoot, 'memory/convention/lock-files.md')}`,
    );
    expect(ctx).not.toContain('Use pnpm'); // always-load: SessionStart gave it already
    expect(hookTiming(r.stderr)).toMatchObject({ outcome: 'answered' });
  });

  it('adds nothing for a prompt no memory shares a word with, or a blank one', async () => {
    for (const text of ['zyxxy qwertz', '   ']) {
      const r = await runHook('user-prompt-submit', world, await prompt(text), { budgetMs: ROOMY });
      expect([r.code, r.stdout]).toEqual([0, '']);
      expect(hookTiming(r.stderr)).toMatchObject({ outcome: 'nothing to add' });
    }
  });

  it('over its budget it adds nothing at all rather than a partial ranking, and still exits 0', async () => {
    const r = await runHook('user-prompt-submit', world, await prompt('vault lock'), { budgetMs: 1 });
    expect([r.code, r.stdout]).toEqual([0, '']);
    expect(r.stderr).toContain('agentm hook UserPromptSubmit: over its 1 ms budget; nothing added');
    expect(hookTiming(r.stderr)).toMatchObject({ outcome: 'over budget', budgetMs: 1 });
  });

  // How long a hook takes is measured in bench/hook-latency.mjs, not asserted here (issue 20 §2).
  it('within its default 300 ms budget: the whole ranking, or nothing', async () => {
    const r = await runHook('user-prompt-submit', world, await prompt('vault lock'));
    expect(r.code).toBe(0);
    const timing = hookTiming(r.stderr)!;
    expect(timing.budgetMs).toBe(300);
    if (timing.outcome === 'answered') {
      expect(context(r.stdout, 'UserPromptSubmit')).toContain('**Where the vault lock lives**');
    } else {
      expect([timing.outcome, r.stdout]).toEqual(['over budget', '']);
    }
  });
});

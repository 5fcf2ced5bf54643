import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';

// Issue 21: the README's first ten minutes, and one filing rule for every front end.

describe("the README's first ten minutes work without a model", { timeout: 120_000 }, () => {
  it('agentm save in a bound repo files under the project, says so, and --global files for every project', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const save = (args: string[], cwd = w.repo) =>
      runAgentm(['save', ...args, '--body-file', '-'], {
        home: w.home,
        cwd,
        stdin: 'Run the tests with pnpm, never npm\n',
      });

    const readme = await save(['preference', 'use-pnpm']);
    expect(readme.code, readme.stderr).toBe(0);
    const inProject = join(w.memoryRoot, 'desk', 'projects', 'proj', 'preference', 'use-pnpm.md');
    expect(readme.stdout).toBe(`${inProject}\n`);
    expect(readme.stderr).toContain(
      "filed under project 'proj' (desk/projects/proj/); --global files a note for every project",
    );
    expect(await readFile(inProject, 'utf8')).toContain('group: desk/projects/proj\n');

    const global = await save(['preference', 'use-pnpm', '--global']);
    expect(global.stdout).toBe(`${join(w.memoryRoot, 'memory', 'preference', 'use-pnpm.md')}\n`);
    expect(global.stderr).toContain('filed as a global note (memory/)');
    // Outside any repository there is no project: the note is global, and the output says it.
    const outside = await save(['fix', 'elsewhere'], w.home);
    expect(outside.stdout).toBe(`${join(w.memoryRoot, 'memory', 'fix', 'elsewhere.md')}\n`);
    expect((await save(['fix', 'x', '--global', '--group', 'memory'])).code).toBe(2);
    // The MCP server and the editors file by the same rule (the workspace's `saveNote`).
    const json = await runAgentm(['save', 'fix', 'in-json', '--body-file', '-', '--json'], {
      home: w.home,
      cwd: w.repo,
      stdin: 'x\n',
    });
    expect(JSON.parse(json.stdout)).toMatchObject({ scope: 'project', project: 'proj' });
  });

  it('agentm plan without a model says up front what running the plan will need', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const planned = await runAgentm(['plan', 'add a --json flag to trace'], { home: w.home, cwd: w.repo });
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toMatch(
      /^agentm plan: no chat model is configured, so the goal becomes one step for a model/,
    );
    expect(planned.stderr).toContain(
      `add [cmd:: <command>] to its line in ${join(w.harness, 'PLAN-add-a-json-flag-to-trace.md')}; then: agentm run --plan add-a-json-flag-to-trace`,
    );
    // And the run refuses before claiming anything, naming the model settings.
    const run = await runAgentm(['run', '--plan', 'add-a-json-flag-to-trace'], { home: w.home, cwd: w.repo });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('needs a chat model');
    expect(await readFile(join(w.harness, 'PLAN-add-a-json-flag-to-trace.md'), 'utf8')).toMatch(/^- \[ \] /m);
  });

  it('agentm run names each plan to run when only named plans exist, and agentm switch makes one active', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await writeFile(join(w.harness, 'PLAN-tests.md'), '# Run the tests\n\n- [ ] test [id:: test] [cmd:: true]\n');
    await writeFile(join(w.harness, 'PLAN-docs.md'), '- [ ] docs [id:: docs] [cmd:: true]\n');
    const run = await runAgentm(['run'], { home: w.home, cwd: w.repo });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`no active plan: ${join(w.harness, 'PLAN.md')} does not exist`);
    expect(run.stderr).toContain('  agentm run --plan docs\n');
    expect(run.stderr).toContain('  agentm run --plan tests   # Run the tests');
    expect(run.stderr).toContain('or make one the active plan: agentm switch <name>');

    const switched = await runAgentm(['switch', 'tests'], { home: w.home, cwd: w.repo });
    expect(switched.code, switched.stderr).toBe(0);
    expect(switched.stdout).toBe('active plan: tests (Run the tests)\n');
    expect(await readFile(join(w.repo, '.harness', 'active-plan'), 'utf8')).toBe('tests\n');
    const plans = await runAgentm(['plans', '--json'], { home: w.home, cwd: w.repo });
    expect(JSON.parse(plans.stdout)).toMatchObject({
      active: 'tests',
      plans: [
        { name: 'docs', active: false },
        { name: 'tests', title: 'Run the tests', active: true },
      ],
    });
    const ran = await runAgentm(['run', '--yes'], { home: w.home, cwd: w.repo });
    expect(ran.code, ran.stderr).toBe(0);
    expect(await readFile(join(w.harness, 'PLAN-tests.md'), 'utf8')).toContain('- [x] test');

    const unknown = await runAgentm(['switch', 'nope'], { home: w.home, cwd: w.repo });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('(the plans here: docs, tests)');
    expect((await runAgentm(['switch', 'PLAN'], { home: w.home, cwd: w.repo })).code).toBe(2); // no PLAN.md
    expect(existsSync(join(w.repo, '.harness', 'active-plan'))).toBe(true);
  });
});

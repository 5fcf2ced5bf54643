import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseProgress } from '../packages/core/src/harness/observations/progress-format.js';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { hookPayload, runHook } from './helpers/claude-hooks.js';
import { runAgentm } from './helpers/cli.js';
import { connectMcp, resultJson, resultText } from './helpers/mcp-client.js';

let world: AgentmWorld;
let marker: string;
beforeEach(async () => {
  world = await agentmWorld();
  await world.writeConfig(vaultConfig(world));
  marker = join(world.home, 'a-step-command-ran');
  await writeFile(join(world.repo, '.harness', 'active-plan'), 'ship\n');
  await writeFile(
    join(world.harness, 'PLAN-ship.md'),
    '---\ngoal: ship the release\n---\n# Ship\n\n' +
      `- [x] build [id:: build]\n- [ ] test [id:: test] [after:: build] [cmd:: touch ${marker}]\n` +
      '- [ ] release [id:: release] [after:: test]\n',
  );
});

const cli = (args: string[]) => runAgentm(args, { home: world.home, cwd: world.repo });
const planText = () => readFile(join(world.harness, 'PLAN-ship.md'), 'utf8');
const progress = async () =>
  parseProgress(await readFile(join(world.harness, 'progress-ship.md'), 'utf8').catch(() => ''));

describe('agentm mcp: plans', () => {
  it('lists the plans and reads one: steps with status, dependencies, attempts, latest progress', async () => {
    const mcp = await connectMcp(world);
    const listing = resultJson<{
      plans: Array<{ name: string; counts: Record<string, number> }>;
      active: { name: string };
    }>(await mcp.call('list_plans'));
    expect(listing.active.name).toBe('ship');
    expect(listing.plans).toEqual([
      expect.objectContaining({ name: 'ship', status: 'open', counts: { done: 1, ready: 1, pending: 1 } }),
    ]);
    const plan = resultJson<Record<string, unknown> & { steps: Array<Record<string, unknown>> }>(
      await mcp.call('read_plan', {}),
    );
    expect(plan).toMatchObject({
      name: 'ship',
      goal: 'ship the release',
      planFile: join(world.harness, 'PLAN-ship.md'),
      progressFile: join(world.harness, 'progress-ship.md'),
    });
    expect(plan.steps.map((s) => [s['id'], s['status'], s['dependsOn'], s['attempt'], s['hasCommand']])).toEqual([
      ['build', 'done', [], 0, false],
      ['test', 'ready', ['build'], 0, true],
      ['release', 'pending', ['test'], 0, false],
    ]);
  });

  it('update_step writes through the lock and CAS: the PLAN file, the log and `agentm plans` show it; no command runs', async () => {
    const mcp = await connectMcp(world);
    const started = resultJson(await mcp.call('update_step', { step: 'test', action: 'start' }));
    expect(started).toMatchObject({ plan: 'ship', status: 'running', transitions: ['ready → running'] });
    expect(await planText()).toMatch(/- \[\/\] test \[id:: test\] .*\[agent:: vitest-agent\] \[started:: /);
    const done = resultJson(await mcp.call('update_step', { step: 'test', action: 'done', text: 'suite green' }));
    expect(done).toMatchObject({ status: 'done', transitions: ['running → done'] });
    expect(await planText()).toContain('- [x] test [id:: test]');
    expect((await progress()).map((o) => [o.kind, o.step, o.actor, o.text])).toEqual([
      ['transition', 'test', 'vitest-agent', 'ready → running'],
      ['transition', 'test', 'vitest-agent', 'running → done'],
      ['note', 'test', 'vitest-agent', 'suite green'],
    ]);
    const plans = await cli(['plans']);
    expect(plans.stdout).toBe(`${join(world.harness, 'PLAN-ship.md')}\nactive-binding=ship\n`);
    const readBack = await cli(['read-state', 'PLAN-ship.md']);
    expect(readBack.stdout).toContain('- [x] test [id:: test]');
    expect(readBack.stdout).toContain('- [ ] release [id:: release]'); // now ready: its dependency is done
    // The step's [cmd:: touch …] was never run by any tool.
    await expect(access(marker)).rejects.toThrow();
  });

  it('errors are tool errors with the messages that name the fix; nothing partial is written', async () => {
    const mcp = await connectMcp(world);
    const before = await planText();
    const pending = await mcp.call('update_step', { step: 'release', action: 'start' });
    expect(pending.isError).toBe(true);
    expect(resultText(pending)).toContain('plan step "release": invalid transition "pending" -> "running"');
    const unknown = await mcp.call('update_step', { step: 'deploy', action: 'done' });
    expect(resultText(unknown)).toContain('plan step "deploy" not found');
    const missing = await mcp.call('read_plan', { plan: 'nope' });
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toBe(
      `no plan at ${join(world.harness, 'PLAN-nope.md')}: create it with \`agentm plan "<goal>"\` or write the PLAN file by hand.`,
    );
    const unsafe = await mcp.call('read_plan', { plan: '../../etc' });
    expect(unsafe.isError).toBe(true);
    expect(resultText(unsafe)).toMatch(/unsafe plan name/);
    expect(await planText()).toBe(before);
    expect(await progress()).toEqual([]);
  });

  it('a dangling plan binding is reported, never replaced by PLAN.md', async () => {
    await writeFile(join(world.repo, '.harness', 'active-plan'), 'gone\n');
    const mcp = await connectMcp(world);
    const listing = resultJson<{ bindingError: string; active?: unknown }>(await mcp.call('list_plans'));
    expect(listing.active).toBeUndefined();
    expect(listing.bindingError).toContain('a dangling binding');
    const read = await mcp.call('read_plan', {});
    expect(read.isError).toBe(true);
    expect(resultText(read)).toBe(listing.bindingError);
  });

  it('progress notes from the server and breadcrumbs from hooks at the same time: every entry lands', async () => {
    const mcp = await connectMcp(world);
    const payload = await hookPayload('pre-compact', world);
    const [notes, hooks] = await Promise.all([
      Promise.all([1, 2, 3, 4, 5, 6].map((i) => mcp.call('append_progress', { text: `note ${i}` }))),
      Promise.all([1, 2, 3].map(() => runHook('pre-compact', world, payload))),
    ]);
    expect(notes.filter((r) => r.isError)).toEqual([]);
    expect(hooks.map((h) => h.code)).toEqual([0, 0, 0]);
    const log = await progress();
    expect(
      log
        .filter((o) => o.actor === 'vitest-agent')
        .map((o) => o.text)
        .sort(),
    ).toEqual([1, 2, 3, 4, 5, 6].map((i) => `note ${i}`));
    expect(log.filter((o) => o.actor === 'claude-code')).toHaveLength(3);
  });

  it('resources: notes, plans and progress logs, listed and read; nothing else in the store', async () => {
    await writeFile(
      join(world.memoryRoot, 'memory', 'convention', 'lock-files.md'),
      '---\ntype: convention\nstatus: active\n---\n\n# Locks\n\nUnder ~/.cache.\n',
    );
    const mcp = await connectMcp(world);
    await mcp.call('append_progress', { text: 'hello log' });
    const { resources } = await mcp.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        'agentm://note/memory/convention/lock-files.md',
        'agentm://plan/ship',
        'agentm://progress/ship',
      ]),
    );
    const note = await mcp.client.readResource({ uri: 'agentm://note/memory/convention/lock-files.md' });
    expect(note.contents[0]).toMatchObject({
      mimeType: 'text/markdown',
      text: await readFile(join(world.memoryRoot, 'memory/convention/lock-files.md'), 'utf8'),
    });
    const plan = await mcp.client.readResource({ uri: 'agentm://plan/ship' });
    expect(plan.contents[0]).toMatchObject({ text: await planText() });
    const log = await mcp.client.readResource({ uri: 'agentm://progress/ship' });
    expect((log.contents[0] as { text: string }).text).toContain('hello log');
    await expect(mcp.client.readResource({ uri: 'agentm://note/_meta/repos.json' })).rejects.toThrow(
      /not a memory note/,
    );
    await expect(mcp.client.readResource({ uri: 'agentm://note/memory/..%2F..%2F..%2Fetc%2Fpasswd' })).rejects.toThrow(
      /invalid storage locator/,
    );
    await expect(mcp.client.readResource({ uri: 'agentm://plan/..%2F..%2Fx' })).rejects.toThrow(/unsafe plan name/);
  });
});

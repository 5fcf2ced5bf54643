import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlan, parseProgress } from '@agentm/core';
import { AGENTM_BIN, runAgentm } from './helpers/cli.js';
import { FIXTURES, spawnProcess } from './helpers/processes.js';
import { tempDir } from './helpers/temp.js';

const STEP = `'${process.execPath}' '${FIXTURES}harness-step.mjs'`;

async function repoWithPlan(name: string, body: string) {
  const home = await tempDir();
  const repo = join(home, 'repo');
  await mkdir(join(repo, '.harness'), { recursive: true });
  await writeFile(join(repo, '.harness', `PLAN-${name}.md`), `---\ngoal: ${name}\n---\n${body}`);
  const env = {
    PATH: process.env['PATH'],
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    AGENTM_INSTALL_PREFIX: join(home, '.claude'),
  };
  return {
    home,
    repo,
    env,
    side: join(home, 'side-effects.log'),
    plan: join(repo, '.harness', `PLAN-${name}.md`),
    progress: join(repo, '.harness', `progress-${name}.md`),
  };
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const lines = async (file: string) =>
  existsSync(file) ? (await readFile(file, 'utf8')).split('\n').filter(Boolean) : [];

describe('reconciler processes', () => {
  it('two reconcilers racing on one plan never run a step twice', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `s${i}`);
    const t = await repoWithPlan('race', '');
    await writeFile(
      t.plan,
      `---\ngoal: race\n---\n${ids.map((id) => `- [ ] step ${id} [id:: ${id}] [cmd:: ${STEP} '${t.side}' 200 barrier]\n`).join('')}`,
    );
    const args = ['run', '--yes', '--plan', 'race', '--max-concurrent', '2', '--tick-interval', '1'];
    const [a, b] = await Promise.all([
      runAgentm(args, { home: t.home, cwd: t.repo, env: t.env }),
      runAgentm(args, { home: t.home, cwd: t.repo, env: t.env }),
    ]);
    expect([a.code, b.code], `${a.stderr}\n${b.stderr}`).toEqual([0, 0]);
    expect([a.stdout, b.stdout]).toEqual(['plan race: done\n', 'plan race: done\n']);

    const side = await lines(t.side);
    const starts = side.filter((l) => l.startsWith('start ')).map((l) => l.split(' ')[1]);
    expect([...starts].sort()).toEqual([...ids].sort());
    expect(side.filter((l) => l.startsWith('done '))).toHaveLength(12);
    // Both processes did work (the first steps wait for each other): the race was real.
    const parents = new Set(side.filter((l) => l.startsWith('start ')).map((l) => /parent=(\d+)/.exec(l)![1]));
    expect(parents.size).toBe(2);

    const log = parseProgress(await readFile(t.progress, 'utf8'));
    const claims = log.filter((o) => o.kind === 'transition' && o.data['to'] === 'running').map((o) => o.step);
    expect([...claims].sort()).toEqual([...ids].sort());
    expect(
      new Set(log.filter((o) => o.kind === 'transition' && o.data['to'] === 'running').map((o) => o.actor)).size,
    ).toBe(2);
    const plan = parsePlan(await readFile(t.plan, 'utf8'));
    expect(plan.meta.status).toBe('done');
    expect(plan.steps.every((s) => s.stored === 'done' && s.attempt === 0)).toBe(true);
  }, 60_000);

  it('a reconciler killed with SIGKILL mid-step is recovered on restart: same key, attempt bumped, plan completes', async () => {
    const t = await repoWithPlan('crash', '');
    await writeFile(
      t.plan,
      `---\ngoal: crash\n---\n- [ ] first [id:: s1] [cmd:: ${STEP} '${t.side}' 50 hang]\n- [ ] second [id:: s2] [after:: s1] [cmd:: ${STEP} '${t.side}' 50]\n`,
    );
    const first = spawnProcess(AGENTM_BIN, ['run', '--yes', '--plan', 'crash'], t.env, {
      cwd: t.repo,
      replaceEnv: true,
    });
    await waitFor(
      async () => (await lines(t.side)).some((l) => l.startsWith('start s1 attempt=0')),
      'the first attempt to start',
    );
    first.child.kill('SIGKILL');
    await first.exited;
    const orphan = Number(/pid=(\d+)/.exec((await lines(t.side))[0]!)![1]);
    try {
      process.kill(orphan, 'SIGKILL');
    } catch {
      // already gone
    }
    const stuck = parsePlan(await readFile(t.plan, 'utf8')).steps[0]!;
    expect(stuck).toMatchObject({ stored: 'running', attempt: 0, agent: `${first.child.pid}@${hostname()}` });
    const key = stuck.key!;

    const second = await runAgentm(['run', '--yes', '--plan', 'crash'], { home: t.home, cwd: t.repo, env: t.env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toBe('plan crash: done\n');
    expect(second.stderr).toContain('recovered step s1: its claimant is gone');

    const side = await lines(t.side);
    expect(side.map((l) => l.replace(/ pid=\d+ parent=\d+/, ''))).toEqual([
      `start s1 attempt=0 key=${key}`,
      `start s1 attempt=1 key=${key}`,
      'done s1 attempt=1',
      expect.stringMatching(/^start s2 attempt=0 key=[0-9a-f]{32}$/),
      'done s2 attempt=0',
    ]);
    const plan = parsePlan(await readFile(t.plan, 'utf8'));
    expect(plan.meta.status).toBe('done');
    expect(plan.steps[0]).toMatchObject({ stored: 'done', attempt: 1, key });
    const log = parseProgress(await readFile(t.progress, 'utf8'));
    expect(log.find((o) => o.kind === 'error')).toMatchObject({
      step: 's1',
      attempt: 0,
      data: { reason: 'claimant_gone', claimant: `${first.child.pid}@${hostname()}` },
    });
    expect(
      log
        .filter((o) => o.kind === 'transition' && o.step === 's1')
        .map((o) => `${o.data['from']}->${o.data['to']}@${o.attempt}`),
    ).toEqual(['ready->running@0', 'running->failed@0', 'failed->ready@1', 'ready->running@1', 'running->done@1']);
  }, 60_000);

  it('SIGINT stops a run: the running command is ended, its step released for a retry, exit 130', async () => {
    const t = await repoWithPlan('stop', '');
    await writeFile(t.plan, `- [ ] endless [id:: s1] [cmd:: ${STEP} '${t.side}' 50 hang]\n`);
    const run = spawnProcess(AGENTM_BIN, ['run', '--yes', '--plan', 'stop'], t.env, { cwd: t.repo, replaceEnv: true });
    await waitFor(
      async () => (await lines(t.side)).some((l) => l.startsWith('start s1 attempt=0')),
      'the step to start',
    );
    run.child.kill('SIGINT');
    const exit = await run.exited;
    expect([exit.code, exit.stdout], exit.stderr).toEqual([
      130,
      'plan stop: stopped (running steps were released for a retry)\n',
    ]);
    const stepPid = Number(/pid=(\d+)/.exec((await lines(t.side))[0]!)![1]);
    expect(() => process.kill(stepPid, 0)).toThrow();
    expect(parsePlan(await readFile(t.plan, 'utf8')).steps[0]).toMatchObject({ stored: 'pending', attempt: 1 });
    const log = parseProgress(await readFile(t.progress, 'utf8'));
    expect(log.find((o) => o.kind === 'error')).toMatchObject({
      step: 's1',
      attempt: 0,
      data: { reason: 'interrupted' },
    });
  }, 60_000);
});

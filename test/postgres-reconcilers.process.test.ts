import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePlan, parseProgress } from '@agentm/core';
import type { Observation } from '@agentm/core/harness';
import { PostgresBackend } from '@agentm/core/backends';
import { AGENTM_BIN } from './helpers/cli.js';
import { machines, type Machine } from './helpers/netns.js';
import { testDatabase, type TestDatabase } from './helpers/postgres.js';
import { FIXTURES, spawnProcess, type Spawned } from './helpers/processes.js';
import { tempDir } from './helpers/temp.js';

// Several reconcilers — separate processes, each in a network namespace of its own where the machine
// allows — on one plan in one postgres store: claims are leases (FOR UPDATE SKIP LOCKED), renewed by a
// heartbeat, taken over from any "machine" once expired, and fenced at record time.

const STEP = `'${process.execPath}' '${FIXTURES}harness-step.mjs'`;
const HARNESS = 'desk/projects/demo/_harness';

let db: TestDatabase;
const backends: PostgresBackend[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await Promise.all(backends.map((b) => b.close()));
});

/**
 * A team's set-up: a store (a fresh schema) with the plan, a repo bound to project `demo`, and for each
 * machine a home of its own (config, caches, run records: nothing device-local is shared, as on real
 * machines).
 */
async function team(plan: string, body: (side: string) => string, leaseMs: number) {
  const home = await tempDir();
  const side = join(home, 'side-effects.log');
  const repo = join(home, 'repo');
  const schema = db.freshSchema();
  await mkdir(join(repo, '.harness'), { recursive: true });
  await writeFile(join(repo, '.harness', 'project.json'), JSON.stringify({ vault_project: 'demo' }));
  const config = { 'storage.backend': 'postgres', 'postgres.schema': schema, 'postgres.lease_ms': leaseMs };
  const store = new PostgresBackend({ url: db.url, schema, env: db.env });
  backends.push(store);
  const text = body(side);
  const head = text.startsWith('budget:') ? `---\ngoal: ${plan}\n` : `---\ngoal: ${plan}\n---\n`;
  await store.write(store.resolve(HARNESS, `PLAN-${plan}.md`), `${head}${text}`);
  let machinesMade = 0;
  const run = async (machine: Machine, args: string[] = []): Promise<Spawned> => {
    const own = join(home, `machine-${machinesMade++}`);
    await mkdir(join(own, '.claude'), { recursive: true });
    await writeFile(join(own, '.claude', '.agentm-config.json'), JSON.stringify(config));
    const env = {
      PATH: process.env['PATH'],
      HOME: own,
      XDG_CACHE_HOME: join(own, '.cache'),
      AGENTM_INSTALL_PREFIX: join(own, '.claude'),
      AGENTM_PG_URL: `postgres://${encodeURIComponent(db.server.user)}@${machine.dbHost}:${machine.dbPort}/${db.name}`,
      PGPASSWORD: db.server.password,
    };
    const argv = [AGENTM_BIN, 'run', '--yes', '--plan', plan, '--tick-interval', '1', ...args];
    const [command, ...rest] = [...machine.prefix, ...argv];
    return spawnProcess(command!, rest, env, { cwd: repo, replaceEnv: true });
  };
  return {
    side,
    run,
    plan: async () => parsePlan(await store.read(store.resolve(HARNESS, `PLAN-${plan}.md`))),
    planText: () => store.read(store.resolve(HARNESS, `PLAN-${plan}.md`)),
    progress: async () => parseProgress(await store.read(store.resolve(HARNESS, `progress-${plan}.md`))),
  };
}

const lines = async (file: string) =>
  existsSync(file) ? (await readFile(file, 'utf8')).split('\n').filter(Boolean) : [];

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const transitions = (log: readonly Observation[], step: string) =>
  log
    .filter((o) => o.kind === 'transition' && o.step === step)
    .map((o) => `${o.data['from']}->${o.data['to']}@${o.attempt}`);

describe('reconcilers on one postgres plan', () => {
  it('three reconcilers on "machines" of their own run each of 50 steps exactly once', async () => {
    const net = await machines(3, db.server);
    if (!net.isolated)
      console.log(`network namespaces unavailable (${net.reason}): the reconcilers are plain processes`);
    const ids = Array.from({ length: 50 }, (_, i) => `s${i}`);
    const t = await team(
      'race',
      (side) =>
        'budget:\n  steps: 100\n---\n' +
        ids.map((id) => `- [ ] step ${id} [id:: ${id}] [cmd:: ${STEP} '${side}' 20 barrier]\n`).join(''),
      30_000,
    );
    const runs = await Promise.all(net.machines.map((m) => t.run(m, ['--max-concurrent', '2'])));
    const exits = await Promise.all(runs.map((r) => r.exited));
    for (const exit of exits) expect([exit.code, exit.stdout], exit.stderr).toEqual([0, 'plan race: done\n']);

    const side = await lines(t.side);
    const starts = side.filter((l) => l.startsWith('start ')).map((l) => l.split(' ')[1]);
    expect([...starts].sort()).toEqual([...ids].sort());
    expect(side.filter((l) => l.startsWith('done '))).toHaveLength(50);
    const parents = new Set(side.filter((l) => l.startsWith('start ')).map((l) => /parent=(\d+)/.exec(l)![1]));
    expect(parents.size).toBeGreaterThanOrEqual(2);
    // Each namespace reached the store only over its own link (its loopback has no server).
    if (net.isolated) for (const m of net.machines) expect(m.connections).toBeGreaterThan(0);

    const plan = await t.plan();
    expect(plan.meta.status).toBe('done');
    expect(plan.steps.every((s) => s.stored === 'done' && s.attempt === 0)).toBe(true);
    const log = await t.progress();
    const claims = log.filter((o) => o.kind === 'transition' && o.data['to'] === 'running').map((o) => o.step);
    expect([...claims].sort()).toEqual([...ids].sort());
    expect(log.filter((o) => o.kind === 'error')).toEqual([]);
  }, 60_000);

  it('SIGKILL one mid-step: another finishes the step once its lease expires (attempt bumped, key kept)', async () => {
    const net = await machines(2, db.server);
    const t = await team(
      'crash',
      (side) =>
        `- [ ] first [id:: s1] [cmd:: ${STEP} '${side}' 20 hang]\n- [ ] second [id:: s2] [after:: s1] [cmd:: ${STEP} '${side}' 20]\n`,
      1500,
    );
    const first = await t.run(net.machines[0]!);
    await waitFor(async () => (await lines(t.side)).some((l) => l.startsWith('start s1 attempt=0')), 'attempt 0');
    first.child.kill('SIGKILL');
    await first.exited;
    const orphan = Number(/pid=(\d+)/.exec((await lines(t.side))[0]!)![1]);
    try {
      process.kill(orphan, 'SIGKILL');
    } catch {
      // gone already
    }
    const stuck = (await t.plan()).steps[0]!;
    expect(stuck).toMatchObject({ stored: 'running', attempt: 0 });

    const second = await (await t.run(net.machines[1]!)).exited;
    expect([second.code, second.stdout], second.stderr).toEqual([0, 'plan crash: done\n']);
    const side = (await lines(t.side)).map((l) => l.replace(/ pid=\d+ parent=\d+/, ''));
    expect(side).toEqual([
      `start s1 attempt=0 key=${stuck.key}`,
      `start s1 attempt=1 key=${stuck.key}`,
      'done s1 attempt=1',
      expect.stringMatching(/^start s2 attempt=0 key=[0-9a-f]{32}$/),
      'done s2 attempt=0',
    ]);
    const log = await t.progress();
    expect(log.find((o) => o.kind === 'error')).toMatchObject({
      step: 's1',
      attempt: 0,
      data: { reason: 'lease_expired', claimant: stuck.agent },
    });
    expect(transitions(log, 's1')).toEqual([
      'ready->running@0',
      'running->failed@0',
      'failed->ready@1',
      'ready->running@1',
      'running->done@1',
    ]);
    expect((await t.plan()).steps[0]).toMatchObject({ stored: 'done', attempt: 1, key: stuck.key });
  }, 60_000);

  it('SIGSTOP one past its lease: the new holder runs the step, and resumed the old one records nothing over it', async () => {
    const net = await machines(2, db.server);
    const t = await team('pause', (side) => `- [ ] slow [id:: s1] [cmd:: ${STEP} '${side}' 20 stall]\n`, 1500);
    const old = await t.run(net.machines[0]!);
    await waitFor(async () => (await lines(t.side)).some((l) => l.startsWith('start s1 attempt=0')), 'attempt 0');
    const claimedBy = (await t.plan()).steps[0]!.agent;
    old.child.kill('SIGSTOP');
    try {
      const fresh = await (await t.run(net.machines[1]!)).exited;
      expect([fresh.code, fresh.stdout], fresh.stderr).toEqual([0, 'plan pause: done\n']);
      const settled = await t.planText();
      const holder = parsePlan(settled).steps[0]!;
      expect(holder).toMatchObject({ stored: 'done', attempt: 1 });
      expect(holder.agent).not.toBe(claimedBy);
      // The paused holder's attempt now finishes, and the holder is resumed.
      await writeFile(`${t.side}.release`, '');
      await waitFor(async () => (await lines(t.side)).includes('done s1 attempt=0'), 'attempt 0 to finish');
    } finally {
      old.child.kill('SIGCONT');
    }
    const resumed = await old.exited;
    expect([resumed.code, resumed.stdout], resumed.stderr).toEqual([0, 'plan pause: done\n']);
    expect(resumed.stderr).toMatch(/step s1 discarded/);
    const plan = await t.plan();
    expect(plan.steps[0]).toMatchObject({ stored: 'done', attempt: 1 });
    const log = await t.progress();
    expect(transitions(log, 's1')).toEqual([
      'ready->running@0',
      'running->failed@0',
      'failed->ready@1',
      'ready->running@1',
      'running->done@1',
    ]);
    const discarded = log.filter((o) => o.kind === 'note' && o.actor === claimedBy);
    expect(discarded.map((o) => o.text)).toEqual([
      expect.stringMatching(/^result of attempt 0 discarded: its lease was taken over/),
    ]);
  }, 60_000);
});

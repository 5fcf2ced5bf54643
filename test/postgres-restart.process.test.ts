import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBackend, type ChangeSignal } from '@agentm/core/backends';
import { startCluster, type Cluster } from './postgres/cluster.mjs';
import { withAdmin } from './helpers/postgres.js';
import { spawnFixture } from './helpers/processes.js';

// A server restarted under load (`pg_ctl restart -m fast`, which ends every connection): writers carry
// on once it is back and nothing they were told was written is lost or torn; listeners come back and say
// so (resync), then hear of new changes. This file has a cluster of its own: restarting the run's shared
// one would cut the other test files off.

const noteText = (i: number) => `# note ${i}\n\n${`line ${i} of a note that must arrive whole\n`.repeat(200)}`;

let cluster: Cluster | undefined;
let url = '';
const env = () => ({ PGPASSWORD: cluster!.password });
const opened: PostgresBackend[] = [];

beforeAll(async () => {
  if (process.env['AGENTM_TEST_PG_URL']) return; // a server these tests did not start cannot be restarted
  cluster = await startCluster();
  await withAdmin(cluster, 'postgres', (c) => c.query('CREATE DATABASE restart'));
  url = `postgres://${cluster.user}@${cluster.host}:${cluster.port}/restart`;
}, 60_000);
afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
  cluster?.stop();
});

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the postgres server restarted mid-run', () => {
  it('writers reconnect, nothing acknowledged is lost or half-written, listeners resume', async (ctx) => {
    if (!cluster) {
      console.log('skipped: AGENTM_TEST_PG_URL names a server this test did not start, so it cannot restart it');
      ctx.skip();
    }
    const store = new PostgresBackend({ url, schema: 'restart', env: env() });
    opened.push(store);
    await store.mkdir(store.resolve('notes')); // the tables exist before the writers and the listener start
    const signals: ChangeSignal[] = [];
    const unsubscribe = store.changeFeed.subscribe((signal) => signals.push(signal));
    const writers = ['w0', 'w1'].map((prefix) =>
      spawnFixture('pg-ack-writer.mjs', [url, 'restart', prefix, '250'], env()),
    );
    await Promise.all(writers.map((w) => w.waitForLine(/^ack 20$/, 45_000)));
    await until(() => signals.some((s) => 'keys' in s), 'the listener to hear the writers');
    cluster!.restart(); // returns once the server is back
    // Still writing then: they were writing while the server went down and came back.
    expect(writers.some((w) => w.child.exitCode === null)).toBe(true);
    const exits = await Promise.all(writers.map((w) => w.exited));
    for (const exit of exits) expect(exit.code, exit.stderr).toBe(0);
    // Every acknowledged write is there, whole, and nothing else is.
    for (const [w, exit] of exits.entries()) {
      const acked = exit.stdout.split('\n').filter((l) => l.startsWith('ack '));
      expect(acked).toEqual(Array.from({ length: 250 }, (_, i) => `ack ${i}`));
      for (let i = 0; i < 250; i++)
        expect(await store.read(store.resolve('notes', `w${w}-n${i}.md`))).toBe(noteText(i));
    }
    expect(await store.list(store.resolve('notes'))).toHaveLength(500);
    // The listener came back (resync), and hears a change made after the restart.
    await until(() => signals.some((s) => 'resync' in s), 'the listener to resync after the restart');
    const seen = signals.length;
    await store.write(store.resolve('notes', 'after.md'), 'after the restart\n');
    await until(
      () => signals.slice(seen).some((s) => 'keys' in s && s.keys.includes('notes/after.md')),
      'the listener to hear a change after the restart',
    );
    unsubscribe();
  }, 60_000);
});

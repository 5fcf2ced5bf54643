import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBackend, type PostgresBackendOptions } from '../../src/backends/postgres/postgres-backend.js';
import type { ChangeSignal } from '../../src/seam/change-feed.js';
import { testDatabase, type TestDatabase } from '../../../../test/helpers/postgres.js';
import { tcpRelay } from '../../../../test/helpers/relay.js';

// What a postgres store tells its readers: the change cursor (what changed since, never missing a write
// whose transaction was still open at the last read), notifications from any writer, a listener that
// notices a dead connection by its heartbeat and says "resync" once back, and step leases.

let db: TestDatabase;
const opened: PostgresBackend[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
});

function store(options: Partial<PostgresBackendOptions> = {}): PostgresBackend {
  const backend = new PostgresBackend({ url: db.url, schema: db.freshSchema(), env: db.env, ...options });
  opened.push(backend);
  return backend;
}

/** Another handle on the same store (another process or machine, as far as the database can tell). */
function twin(of: PostgresBackend, options: Partial<PostgresBackendOptions> = {}): PostgresBackend {
  return store({ schema: of.settings.schema, ...options });
}

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const keysOf = (batch: { changes: readonly { locator: { key: string }; removed: boolean }[] }) =>
  batch.changes.map((c) => `${c.removed ? '-' : '+'}${c.locator.key}`).sort();

describe('the change cursor', () => {
  it('lists everything first (full), then only what changed since, removals included', async () => {
    const b = store();
    await b.write(b.resolve('memory', 'fix', 'a.md'), 'a\n');
    await b.write(b.resolve('memory', 'fix', 'b.md'), 'b\n');
    const first = await b.changeFeed.changedSince(undefined);
    expect(first.full).toBe(true);
    expect(keysOf(first)).toEqual(['+memory/fix/a.md', '+memory/fix/b.md']);
    expect(first.changes[0]!.info).toMatchObject({ isDir: false, size: 2 });
    await b.write(b.resolve('memory', 'fix', 'a.md'), 'a2\n');
    await b.remove(b.resolve('memory', 'fix', 'b.md'));
    const second = await b.changeFeed.changedSince(first.cursor);
    expect(second.full).toBe(false);
    expect(keysOf(second)).toEqual(['+memory/fix/a.md', '-memory/fix/b.md']);
    // Nothing new since: at most a repeat of these (at least once, when a transaction elsewhere on the
    // server was open at the last read), never anything else.
    const third = keysOf(await b.changeFeed.changedSince(second.cursor));
    expect(third.filter((k) => !keysOf(second).includes(k))).toEqual([]);
  });

  it('a write whose transaction was open at the last read is in the next batch, not lost', async () => {
    const b = store();
    const other = twin(b);
    await b.write(b.resolve('seed.md'), 'seed\n');
    const start = await b.changeFeed.changedSince(undefined);
    let commit!: () => void;
    const held = new Promise<void>((r) => (commit = r));
    let wrote!: () => void;
    const written = new Promise<void>((r) => (wrote = r));
    const slow = other.withLock(async () => {
      await other.write(other.resolve('slow.md'), 'slow\n');
      wrote();
      await held;
    });
    await written;
    let during;
    try {
      await b.write(b.resolve('fast.md'), 'fast\n'); // started after the slow one, committed before it
      during = await b.changeFeed.changedSince(start.cursor);
    } finally {
      commit();
      await slow;
    }
    // At least once: a batch may repeat a change (here seed.md, when another transaction of the server
    // was open at the first read), but never misses one.
    expect(keysOf(during)).toContain('+fast.md');
    expect(keysOf(during)).not.toContain('+slow.md');
    expect(keysOf(await b.changeFeed.changedSince(during.cursor))).toContain('+slow.md');
  });

  it('a cursor of another store (or of none) is answered with a full listing', async () => {
    const a = store();
    const other = store();
    await other.write(other.resolve('x.md'), 'x\n');
    const foreign = (await a.changeFeed.changedSince(undefined)).cursor;
    const batch = await other.changeFeed.changedSince(foreign);
    expect(batch.full).toBe(true);
    expect(keysOf(batch)).toEqual(['+x.md']);
    expect((await other.changeFeed.changedSince('not a cursor')).full).toBe(true);
  });
});

describe('notifications', () => {
  it("a subscriber hears another writer's changes, by key", async () => {
    const b = store();
    await b.mkdir(b.resolve('memory'));
    const signals: ChangeSignal[] = [];
    const stop = b.changeFeed.subscribe((s) => signals.push(s));
    const writer = twin(b);
    // The first notification may race the LISTEN: write until one is heard, then expect the next one.
    for (let i = 0; !signals.some((s) => 'keys' in s); i++) {
      await writer.write(writer.resolve('memory', `warm-${i}.md`), 'x\n');
      await new Promise((r) => setTimeout(r, 50));
    }
    await writer.write(writer.resolve('memory', 'note.md'), 'hello\n');
    await until(() => signals.some((s) => 'keys' in s && s.keys.includes('memory/note.md')), 'the note');
    stop();
  });

  it('a listening connection that stops answering is found by its heartbeat, replaced, and says resync', async () => {
    const relay = await tcpRelay('127.0.0.1', db.server);
    const url = `postgres://${db.server.user}@127.0.0.1:${relay.port}/${db.name}`;
    const b = store({ url, heartbeatMs: 200 });
    await b.mkdir(b.resolve('memory'));
    const signals: ChangeSignal[] = [];
    const stop = b.changeFeed.subscribe((s) => signals.push(s));
    const direct = twin(b);
    for (let i = 0; !signals.some((s) => 'keys' in s); i++) {
      await direct.write(direct.resolve('memory', `warm-${i}.md`), 'x\n');
      await new Promise((r) => setTimeout(r, 50));
    }
    const listenerConnections = relay.opened;
    relay.freeze(); // the listening connection now delivers nothing and reports nothing (a half-open link)
    await until(() => signals.some((s) => 'resync' in s), 'the listener to notice and come back');
    expect(relay.opened).toBeGreaterThan(listenerConnections);
    const seen = signals.length;
    await direct.write(direct.resolve('memory', 'after.md'), 'after\n');
    await until(
      () => signals.slice(seen).some((s) => 'keys' in s && s.keys.includes('memory/after.md')),
      'a change after the reconnect',
    );
    stop();
  });
});

describe('step leases', () => {
  it('a row being claimed is skipped by another claimer, and a re-grant fences the old token', async () => {
    const b = store({ leaseMs: 60_000 });
    const other = twin(b, { leaseMs: 60_000 });
    const plan = b.resolve('desk', 'projects', 'x', '_harness', 'PLAN.md');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const claim = b.stepLeases.withLease(plan, 's1', { skipLocked: true }, async (current, edit) => {
      expect(current).toBeUndefined();
      const lease = await edit.grant('1@a', 0);
      locked();
      await held;
      return lease;
    });
    await isLocked;
    expect(await other.stepLeases.withLease(plan, 's1', { skipLocked: true }, async () => 'ran')).toBeUndefined();
    release();
    const first = (await claim)!.value;
    const listed = await other.stepLeases.list(plan);
    expect(listed.get('s1')).toMatchObject({ holder: '1@a', attempt: 0, token: first.token });
    expect(listed.get('s1')!.remainingMs).toBeGreaterThan(50_000);
    expect(await b.stepLeases.renew(first)).toBe(true);
    const second = await other.stepLeases.withLease(plan, 's1', { skipLocked: false }, (_c, edit) =>
      edit.grant('2@b', 1),
    );
    expect(await b.stepLeases.renew(first)).toBe(false);
    expect(await other.stepLeases.renew(second!.value)).toBe(true);
  });

  it('a lease not renewed expires by the server clock; a released one is gone', async () => {
    const b = store({ leaseMs: 200 });
    const plan = b.resolve('PLAN.md');
    const granted = await b.stepLeases.withLease(plan, 's1', { skipLocked: true }, (_c, edit) => edit.grant('1@a', 0));
    let remaining = Infinity;
    while (remaining > 0) remaining = (await b.stepLeases.list(plan)).get('s1')!.remainingMs;
    expect(remaining).toBeLessThanOrEqual(0);
    await b.stepLeases.withLease(plan, 's1', { skipLocked: false }, async (current, edit) => {
      expect(current?.token).toBe(granted!.value.token);
      await edit.release();
    });
    expect((await b.stepLeases.list(plan)).size).toBe(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBackend } from '@agentm/core/backends';
import { testDatabase, type TestDatabase } from './helpers/postgres.js';
import { spawnFixture } from './helpers/processes.js';

// Processes sharing one postgres store: the compare-and-swap is one conditional UPDATE, so no update is
// lost between processes (or machines); and processes starting together on a fresh store create its
// tables once.

let db: TestDatabase;
const opened: PostgresBackend[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
});

const counterValue = async (schema: string) => {
  const backend = new PostgresBackend({ url: db.url, schema, env: db.env });
  opened.push(backend);
  return backend.read(backend.resolve('counter.md'));
};

describe('processes on one postgres store', () => {
  it('8 processes × 50 read-increment-CAS cycles on one note end at exactly 400', async () => {
    const schema = db.freshSchema();
    const workers = Array.from({ length: 8 }, () =>
      spawnFixture('pg-counter-worker.mjs', [db.url, schema, '50'], { PGPASSWORD: db.server.password }),
    );
    const exits = await Promise.all(workers.map((w) => w.exited));
    for (const exit of exits) expect(exit.code, exit.stderr).toBe(0);
    expect(await counterValue(schema)).toBe('400\n');
    // The race was real: some writers lost a compare-and-swap and retried from a fresh read.
    const retries = exits.reduce((n, e) => n + (JSON.parse(e.stdout) as { retries: number }).retries, 0);
    expect(retries).toBeGreaterThan(0);
  }, 60_000);

  it('six processes starting at once on a fresh store migrate it once, and all of them work', async () => {
    const schema = db.freshSchema();
    const workers = Array.from({ length: 6 }, () =>
      spawnFixture('pg-counter-worker.mjs', [db.url, schema, '1'], { PGPASSWORD: db.server.password }),
    );
    const exits = await Promise.all(workers.map((w) => w.exited));
    for (const exit of exits) expect(exit.code, exit.stderr).toBe(0);
    expect(await counterValue(schema)).toBe('6\n');
    const applied = await db.sql<{ version: number; applied_by: string }>(
      `SELECT version, applied_by FROM ${schema}.migrations ORDER BY version`,
    );
    expect(applied.rows.map((r) => r.version)).toEqual([1]);
    expect(applied.rows[0]!.applied_by).toMatch(/^\d+@/);
  }, 60_000);
});

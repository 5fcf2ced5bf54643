import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase, type TestDatabase } from '../../../../test/helpers/postgres.js';
import { IndexFreshness } from '../../src/agents/mcp/index-freshness.js';
import { PostgresBackend } from '../../src/backends/postgres/postgres-backend.js';

// The MCP server's index freshness on a database store: no folder to watch, so the store's own
// notifications (LISTEN/NOTIFY) mark the index stale when any machine writes.

let db: TestDatabase;
const opened: PostgresBackend[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
});

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('IndexFreshness on a postgres store', () => {
  it("refreshes first, then only after another machine's write is notified", async () => {
    const schema = db.freshSchema();
    const server = new PostgresBackend({ url: db.url, schema, env: db.env });
    const other = new PostgresBackend({ url: db.url, schema, env: db.env });
    opened.push(server, other);
    await server.mkdir(server.resolve('memory'));
    const fresh = new IndexFreshness(server.changeFeed);
    let told = 0;
    fresh.onChange(() => told++);
    fresh.start();
    try {
      expect(fresh.watching).toBe(true);
      expect(fresh.takeRefresh()).toBe(true);
      expect(fresh.takeRefresh()).toBe(false);
      // The listener may still be connecting: write until a notification arrives, then the index is stale.
      for (let i = 0; told === 0; i++) {
        await other.write(other.resolve('memory', 'fix', `n${i}.md`), 'a note\n');
        await new Promise((r) => setTimeout(r, 50));
      }
      await until(() => fresh.takeRefresh(), 'the index to be stale');
      expect(fresh.takeRefresh()).toBe(false);
    } finally {
      fresh.close();
    }
  });
});

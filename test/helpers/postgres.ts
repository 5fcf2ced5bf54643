import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { startCluster, splitPassword } from '../postgres/cluster.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    agentmPgRun: { dir: string; owner: number };
  }
}

/** Where the tests' PostgreSQL server is, and how to administer it (a URL with the password: set-up only). */
export interface TestServer {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly adminUrl: string;
}

/** A database of its own for one test file. AgentM connects with `url` (no password) and `PGPASSWORD`. */
export interface TestDatabase {
  readonly server: TestServer;
  readonly name: string;
  /** `postgres://user@host:port/name`: what `postgres.url` / `AGENTM_PG_URL` is set to. */
  readonly url: string;
  /** The environment a process needs to reach it: `AGENTM_PG_URL` and `PGPASSWORD`. */
  readonly env: Readonly<Record<string, string>>;
  /** A schema name not used before in this database (each one is a fresh store). */
  freshSchema(): string;
  /** Runs SQL as the superuser in this database. */
  sql<T extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<T>>;
}

function fromUrl(url: string): TestServer {
  const parsed = new URL(url);
  const { password } = splitPassword(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    user: decodeURIComponent(parsed.username),
    password,
    adminUrl: url,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The run's shared server: `AGENTM_TEST_PG_URL` when set; else the cluster of this vitest run, started
 * by whichever test file asks first (the others wait on a lock directory for it).
 */
export async function testServer(): Promise<TestServer> {
  const external = process.env['AGENTM_TEST_PG_URL'];
  if (external) return fromUrl(external);
  const run = inject('agentmPgRun');
  const facts = join(run.dir, 'cluster.json');
  const failed = join(run.dir, 'cluster.error');
  const lock = join(run.dir, 'lock');
  for (;;) {
    if (existsSync(facts)) return JSON.parse(readFileSync(facts, 'utf8')) as TestServer;
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    try {
      mkdirSync(lock);
    } catch {
      await sleep(50); // another file is starting it
      continue;
    }
    try {
      if (existsSync(facts)) continue;
      const cluster = await startCluster({ owner: run.owner });
      const server = { ...fromUrl(cluster.adminUrl), dir: cluster.dir };
      writeFileSync(facts, JSON.stringify(server));
      return server;
    } catch (error) {
      writeFileSync(failed, (error as Error).message);
      throw error;
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** Runs `fn` with a superuser client on `database` of `server`. */
export async function withAdmin<T>(
  server: TestServer,
  database: string,
  fn: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({
    host: server.host,
    port: server.port,
    user: server.user,
    password: server.password,
    database,
  });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database for the calling test file, dropped after its tests (connections still open are
 * ended first). Call once per file, at the top level or in `beforeAll`.
 */
export async function testDatabase(): Promise<TestDatabase> {
  const server = await testServer();
  const name = `agentm_t_${randomBytes(6).toString('hex')}`;
  await withAdmin(server, 'postgres', (c) => c.query(`CREATE DATABASE ${name}`));
  const pool = new pg.Pool({
    host: server.host,
    port: server.port,
    user: server.user,
    password: server.password,
    database: name,
    max: 2,
  });
  pool.on('error', () => undefined); // a restarted server ends idle clients; the next query reconnects
  afterAll(async () => {
    await pool.end();
    await withAdmin(server, 'postgres', (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  });
  let schemas = 0;
  const url = `postgres://${encodeURIComponent(server.user)}@${server.host}:${server.port}/${name}`;
  return {
    server,
    name,
    url,
    env: { AGENTM_PG_URL: url, PGPASSWORD: server.password },
    freshSchema: () => `s${++schemas}_${randomBytes(3).toString('hex')}`,
    sql: (text, values) => pool.query(text, values),
  };
}

import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PostgresAuthError,
  PostgresBackend,
  PostgresConfigError,
  PostgresDatabaseMissingError,
  PostgresSchemaTooNewError,
  PostgresUnreachableError,
} from '@agentm/core/backends';
import { runAgentm } from './helpers/cli.js';
import { testDatabase, type TestDatabase } from './helpers/postgres.js';
import { tempDir } from './helpers/temp.js';

// A configured postgres store that cannot be used is a typed error naming the fix — from the backend,
// and from every command — never an echo of a password, and never a quiet fall-back to another store.

let db: TestDatabase;
const opened: PostgresBackend[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
});

/** A password that would be easy to spot anywhere it leaked. */
const WRONG = 'Wr0ng-Pa55word-that-must-not-leak';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function store(options: { url?: string; password?: string; schema?: string }): PostgresBackend {
  const backend = new PostgresBackend({
    url: options.url ?? db.url,
    schema: options.schema ?? db.freshSchema(),
    env: { PGPASSWORD: options.password ?? db.server.password },
  });
  opened.push(backend);
  return backend;
}

/** `agentm <args>` in a fresh home whose config selects postgres with `config`, and what it leaves behind. */
async function agentm(args: string[], config: Record<string, unknown>, env: Record<string, string>) {
  const home = await tempDir();
  await mkdir(join(home, '.claude'), { recursive: true });
  await writeFile(
    join(home, '.claude', '.agentm-config.json'),
    JSON.stringify({ 'storage.backend': 'postgres', ...config }),
  );
  const result = await runAgentm(args, { home, env });
  return { ...result, all: `${result.stdout}\n${result.stderr}`, deviceLocal: existsSync(join(home, '.agentm')) };
}

describe('a postgres store that cannot be used', () => {
  it('an unreachable server: PostgresUnreachableError naming the fix; the CLI fails without falling back', async () => {
    const url = `postgres://agentm@127.0.0.1:${await freePort()}/team`;
    const error = await store({ url, password: WRONG })
      .list(store({ url }).resolve())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresUnreachableError);
    expect((error as Error).message).toMatch(
      /cannot reach the PostgreSQL server of postgres:\/\/agentm@127\.0\.0\.1:\d+\/team/,
    );
    expect((error as Error).message).toMatch(/postgres\.url/);
    const cli = await agentm(['recall', 'anything'], {}, { AGENTM_PG_URL: url, PGPASSWORD: WRONG });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(/cannot reach the PostgreSQL server/);
    expect(cli.all).not.toContain(WRONG);
    expect(cli.deviceLocal).toBe(false);
  });

  it('wrong credentials: PostgresAuthError pointing at ~/.pgpass or PGPASSWORD, no password in it', async () => {
    const error = await store({ password: WRONG })
      .list(store({}).resolve())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresAuthError);
    const message = (error as Error).message;
    expect(message).toMatch(/refused user 'agentm_admin'/);
    expect(message).toMatch(/~\/\.pgpass/);
    expect(message).not.toContain(WRONG);
    expect(message).not.toContain(db.server.password);
    const cli = await agentm(['doctor'], {}, { AGENTM_PG_URL: db.url, PGPASSWORD: WRONG });
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(/store \[FAIL\] the PostgreSQL server of .* refused user/);
    expect(cli.all).not.toContain(WRONG);
    expect(cli.deviceLocal).toBe(false);
  });

  it('a password from ~/.pgpass (mode 0600) is used; the same file readable by others is ignored', async () => {
    const home = await tempDir();
    const line = `${db.server.host}:${db.server.port}:${db.name}:${db.server.user}:${db.server.password}\n`;
    await writeFile(join(home, '.pgpass'), line, { mode: 0o600 });
    const good = new PostgresBackend({ url: db.url, schema: db.freshSchema(), env: { HOME: home } });
    opened.push(good);
    await good.write(good.resolve('a.md'), 'via pgpass\n');
    expect(await good.read(good.resolve('a.md'))).toBe('via pgpass\n');
    const open = await tempDir();
    await writeFile(join(open, '.pgpass'), line, { mode: 0o644 });
    const ignored = new PostgresBackend({ url: db.url, schema: db.freshSchema(), env: { HOME: open } });
    opened.push(ignored);
    await expect(ignored.list(ignored.resolve())).rejects.toBeInstanceOf(PostgresAuthError);
  });

  it('a missing database: PostgresDatabaseMissingError saying how to create it', async () => {
    const url = db.url.replace(/\/[^/]+$/, '/no_such_db');
    const error = await store({ url })
      .list(store({ url }).resolve())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresDatabaseMissingError);
    expect((error as Error).message).toMatch(/database 'no_such_db' .* does not exist .*createdb no_such_db/);
  });

  it('a store of a newer schema is refused before anything is read or written', async () => {
    const schema = db.freshSchema();
    const first = store({ schema });
    await first.write(first.resolve('kept.md'), 'kept\n');
    await db.sql(
      `INSERT INTO ${schema}.migrations (version, about, applied_by) VALUES (99, 'from the future', 'test')`,
    );
    const newer = store({ schema });
    const error = await newer.read(newer.resolve('kept.md')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresSchemaTooNewError);
    expect((error as Error).message).toMatch(
      /schema version 99, newer than this AgentM understands \(1\)\. Upgrade AgentM/,
    );
    await expect(newer.write(newer.resolve('new.md'), 'x\n')).rejects.toBeInstanceOf(PostgresSchemaTooNewError);
    const rows = await db.sql(`SELECT key FROM ${schema}.entries WHERE NOT is_dir`);
    expect(rows.rows.map((r) => r['key'])).toEqual(['kept.md']);
  });

  it('a URL with a password: refused at once, by the backend, doctor, config set and every command, never echoed', async () => {
    const withPassword = db.url.replace('@', `:${WRONG}@`);
    expect(() => new PostgresBackend({ url: withPassword })).toThrow(PostgresConfigError);
    try {
      new PostgresBackend({ url: withPassword });
    } catch (error) {
      expect((error as Error).message).toMatch(/contains a password: remove it from the URL .* ~\/\.pgpass/);
      expect((error as Error).message).not.toContain(WRONG);
    }
    const doctor = await agentm(['doctor'], { 'postgres.url': withPassword }, {});
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/storage \[FAIL\] postgres\.url in \.agentm-config\.json contains a password/);
    expect(doctor.all).not.toContain(WRONG);
    const recall = await agentm(['recall', 'x'], {}, { AGENTM_PG_URL: withPassword });
    expect(recall.code).not.toBe(0);
    expect(recall.stderr).toMatch(/AGENTM_PG_URL contains a password/);
    expect(recall.all).not.toContain(WRONG);
    expect(recall.deviceLocal).toBe(false);
    const set = await agentm(['config', 'set', 'postgres.url', withPassword], {}, {});
    expect(set.code).toBe(2);
    expect(set.all).not.toContain(WRONG);
    const get = await agentm(['config', 'get', 'postgres.url'], { 'postgres.url': withPassword }, {});
    expect(get.stdout).toMatch(/^postgres:\/\/agentm_admin:\[REDACTED-API-KEY\]@127\.0\.0\.1/);
    expect(get.all).not.toContain(WRONG);
    const list = await agentm(['config', 'list'], { 'postgres.url': withPassword }, {});
    expect(list.all).not.toContain(WRONG);
  });

  it('nothing configured: the fix names postgres.url, AGENTM_PG_URL and ~/.pgpass', async () => {
    expect(() => new PostgresBackend({ env: {} })).toThrow(
      /no server is configured: set one with agentm config set postgres\.url/,
    );
    const cli = await agentm(['recall', 'x'], {}, {});
    expect(cli.code).not.toBe(0);
    expect(cli.stderr).toMatch(/no server is configured/);
    expect(cli.deviceLocal).toBe(false);
  });
});

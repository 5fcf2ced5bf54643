import { AsyncLocalStorage } from 'node:async_hooks';
import { hostname } from 'node:os';
import type { Pool, PoolClient, QueryResult, QueryResultRow } from 'pg';
import { isTransient, mapPgError } from './errors-map.js';
import { migrate } from './migrations.js';
import { lookupPassword } from './password.js';
import type { PostgresSettings } from './settings.js';
import { contentHash } from '../../write-protocol/content-hash.js';

/** How long a store that answered before is given to come back (a `pg_ctl restart`, a fail-over) before a call fails. */
export const RECONNECT_WINDOW_MS = 20_000;
const BACKOFF_FIRST_MS = 50;
const BACKOFF_MAX_MS = 1000;
const POOL_SIZE = 10;

/** The transaction open in this async context, and whose it is. */
const transactions = new AsyncLocalStorage<{ readonly owner: PgConnection; readonly client: PoolClient }>();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ignore = () => undefined;

/** The driver, loaded on first use: a process that never touches a postgres store never loads it. */
export async function loadPg(): Promise<typeof import('pg').default> {
  return (await import('pg')).default;
}

/**
 * One store's connections: a pool, opened on first use, whose first connection brings the schema up to
 * date (`migrate`). Statements run on the pool, or — inside `transaction` — on the transaction's client,
 * which every verb of the backend called from within joins (AsyncLocalStorage), so a multi-verb change
 * commits or rolls back whole. A store that answered once and then fails at the connection level (a
 * restart) is retried with backoff for `RECONNECT_WINDOW_MS`; one that never answered fails at once.
 */
export class PgConnection {
  readonly settings: PostgresSettings;
  /** Who writes (`pid@host`): recorded with each row and each migration. */
  readonly writer = `${process.pid}@${hostname()}`;
  #ready: Promise<Pool> | undefined;
  #pool: Pool | undefined;
  #answered = false;

  constructor(settings: PostgresSettings) {
    this.settings = settings;
  }

  /** Whether a transaction of this connection is open in the calling context. */
  get inTransaction(): boolean {
    return transactions.getStore()?.owner === this;
  }

  /** Driver options shared by the pool and the listening connection. */
  async clientOptions() {
    const s = this.settings;
    return {
      host: s.host,
      port: s.port,
      user: s.user,
      database: s.database,
      password: async () => (await lookupPassword(s)) ?? '',
      ssl: s.ssl === false ? false : { ...s.ssl },
      connectionTimeoutMillis: s.connectTimeoutMs,
      keepAlive: true,
      application_name: 'agentm',
    };
  }

  /** The pool, opened (and the schema migrated) on first call. A failure is not remembered: the next call tries again. */
  pool(): Promise<Pool> {
    if (!this.#ready) {
      const opening = this.#open();
      this.#ready = opening;
      opening.catch(() => {
        if (this.#ready === opening) this.#ready = undefined;
      });
    }
    return this.#ready;
  }

  async #open(): Promise<Pool> {
    const pg = await loadPg();
    const pool = new pg.Pool({
      ...(await this.clientOptions()),
      max: POOL_SIZE,
      idleTimeoutMillis: 10_000,
      // A command line process ends when its work is done, not when idle connections time out.
      allowExitOnIdle: true,
    });
    // An idle client whose server went away (a restart): the pool drops it, the next query reconnects.
    pool.on('error', () => undefined);
    let client: PoolClient;
    try {
      client = await pool.connect();
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw mapPgError(error, this.settings, 'connect');
    }
    try {
      await migrate(client, this.settings, this.writer);
    } catch (error) {
      client.release(true);
      await pool.end().catch(() => undefined);
      throw mapPgError(error, this.settings, 'create or upgrade the AgentM tables');
    }
    client.release();
    this.#answered = true;
    this.#pool = pool;
    return pool;
  }

  /**
   * Runs `attempt`, and again after a lost connection while the store is given time to come back (only
   * once it has answered before). `attempt` must be safe to repeat (the write verb makes its own
   * repetition safe by checking whether the first one landed).
   */
  async withReconnect<T>(what: string, attempt: (retry: number) => Promise<T>): Promise<T> {
    const started = Date.now();
    for (let retry = 0; ; retry++) {
      try {
        return await attempt(retry);
      } catch (error) {
        if (!isTransient(error) || !this.#answered || Date.now() - started > RECONNECT_WINDOW_MS)
          throw mapPgError(error, this.settings, what);
        await sleep(Math.min(BACKOFF_MAX_MS, BACKOFF_FIRST_MS * 2 ** retry));
      }
    }
  }

  /**
   * One statement: on the open transaction's client when the caller is inside `transaction` (no retry:
   * a lost connection aborts the transaction), else on the pool with `withReconnect`. Errors are the
   * backend's typed errors (`mapPgError`).
   */
  async query<R extends QueryResultRow>(what: string, text: string, values: unknown[] = []): Promise<QueryResult<R>> {
    const statement = { name: statementName(text), text, values };
    const open = transactions.getStore();
    if (open?.owner === this) {
      try {
        return await open.client.query<R>(statement);
      } catch (error) {
        throw mapPgError(error, this.settings, what);
      }
    }
    return this.withReconnect(what, async () => (await this.pool()).query<R>(statement));
  }

  /**
   * Runs `fn` in one transaction (READ COMMITTED; `isolation` to ask for another), joining the one open
   * in this context if any. Commits when `fn` resolves, rolls back when it throws (its error is passed
   * on as is). Only the BEGIN is retried after a lost connection: once `fn` ran, a failure is reported.
   */
  async transaction<T>(fn: () => Promise<T>, isolation?: 'REPEATABLE READ READ ONLY'): Promise<T> {
    if (this.inTransaction) return fn();
    const client = await this.withReconnect('begin a transaction', async () => {
      const c = await (await this.pool()).connect();
      // Between statements nobody awaits the client: a connection that ends then must not be an unhandled
      // 'error' (the next statement fails instead, and the transaction rolls back).
      c.on('error', ignore);
      try {
        await c.query(isolation ? `BEGIN ISOLATION LEVEL ${isolation}` : 'BEGIN');
        return c;
      } catch (error) {
        c.release(true);
        throw error;
      }
    });
    let broken = false;
    try {
      const value = await transactions.run({ owner: this, client }, fn);
      try {
        await client.query('COMMIT');
      } catch (error) {
        broken = true;
        throw mapPgError(error, this.settings, 'commit a transaction');
      }
      return value;
    } catch (error) {
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      client.off('error', ignore);
      client.release(broken ? true : undefined);
    }
  }

  /** Ends the pool (connections close); the next call opens a new one. */
  async close(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    this.#ready = undefined;
    await pool?.end();
  }
}

const names = new Map<string, string>();

/**
 * A name for a statement's text: the driver prepares a named statement once per connection and then
 * only binds and executes it, so the server does not parse and plan the same verb on every call.
 */
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `agentm_${contentHash(text).slice(0, 16)}`;
    names.set(text, name);
  }
  return name;
}

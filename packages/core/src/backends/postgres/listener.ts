import type { Client } from 'pg';
import type { ChangeSignal } from '../../seam/change-feed.js';
import { loadPg, type PgConnection } from './connection.js';
import { changeChannel } from './migrations.js';

/** How often the listening connection proves it is alive, and how long a proof may take. */
export const HEARTBEAT_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;
const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 5_000;
/** Notifications arriving this close together reach subscribers as one signal. */
const COALESCE_MS = 10;

/**
 * LISTEN on the store's channel, on a connection of its own, while anyone subscribes. The connection
 * is watched: a query every `heartbeatMs` (a half-open TCP connection delivers nothing and reports
 * nothing), and any error or end. A lost connection is replaced with backoff (100 ms doubling to 5 s),
 * and once listening again every subscriber gets `resync`, since notifications sent meanwhile are lost:
 * they re-read what changed since their cursor.
 */
export class ChangeListener {
  readonly #db: PgConnection;
  readonly #heartbeatMs: number;
  readonly #subscribers = new Set<(signal: ChangeSignal) => void>();
  #client: Client | undefined;
  #connecting: Promise<void> | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #retry: NodeJS.Timeout | undefined;
  #failures = 0;
  #pending = new Set<string>();
  #flush: NodeJS.Timeout | undefined;
  /** Whether a connection was lost since the last one was up: the next one then signals `resync`. */
  #lost = false;

  constructor(db: PgConnection, options: { heartbeatMs?: number } = {}) {
    this.#db = db;
    this.#heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  }

  subscribe(listener: (signal: ChangeSignal) => void): () => void {
    this.#subscribers.add(listener);
    if (!this.#client && !this.#connecting && !this.#retry) this.#connect();
    return () => {
      this.#subscribers.delete(listener);
      if (this.#subscribers.size === 0) void this.close();
    };
  }

  /** Stops listening (the connection is ended; nothing reconnects until the next subscriber). */
  async close(): Promise<void> {
    clearTimeout(this.#retry);
    clearTimeout(this.#flush);
    clearInterval(this.#heartbeat);
    this.#retry = this.#flush = this.#heartbeat = undefined;
    this.#subscribers.clear();
    const client = this.#client;
    this.#client = undefined;
    await this.#connecting?.catch(() => undefined);
    await client?.end().catch(() => undefined);
  }

  #connect(): void {
    this.#connecting = this.#open().finally(() => (this.#connecting = undefined));
    this.#connecting.catch(() => this.#scheduleRetry());
  }

  async #open(): Promise<void> {
    await this.#db.pool(); // the schema exists (and is ours) before we listen on it
    const pg = await loadPg();
    const client = new pg.Client(await this.#db.clientOptions());
    client.on('error', () => this.#drop(client));
    client.on('end', () => this.#drop(client));
    client.on('notification', (message) => this.#notified(message.payload));
    try {
      await client.connect();
      await client.query(`LISTEN ${changeChannel(this.#db.settings.schema)}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#subscribers.size === 0) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
    this.#failures = 0;
    this.#heartbeat = setInterval(() => void this.#beat(client), this.#heartbeatMs);
    this.#heartbeat.unref();
    if (this.#lost) {
      this.#lost = false;
      this.#emit({ resync: true });
    }
  }

  /**
   * One heartbeat: a query that must answer within the beat (at most 5 s), else the connection is
   * replaced. A connection that stopped answering may not answer a goodbye either: its socket is
   * destroyed, not waited for.
   */
  async #beat(client: Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('heartbeat timed out')),
        Math.min(HEARTBEAT_TIMEOUT_MS, this.#heartbeatMs),
      );
    });
    const answer = client.query('SELECT 1');
    answer.catch(() => undefined); // a late failure after the race is lost is nobody's concern
    try {
      await Promise.race([answer, late]);
    } catch {
      this.#drop(client);
      void client.end().catch(() => undefined);
      client.connection.stream.destroy();
    } finally {
      clearTimeout(timer);
    }
  }

  /** The connection `client` is gone: reconnect (once per loss) while anyone subscribes. */
  #drop(client: Client): void {
    if (this.#client !== client) return;
    this.#client = undefined;
    clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    this.#lost = true;
    if (this.#subscribers.size > 0) this.#scheduleRetry();
  }

  #scheduleRetry(): void {
    if (this.#subscribers.size === 0 || this.#retry) return;
    this.#lost = true;
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** this.#failures++);
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (this.#subscribers.size > 0 && !this.#client && !this.#connecting) this.#connect();
    }, delay);
  }

  #notified(key: string | undefined): void {
    if (key === undefined) return;
    this.#pending.add(key);
    this.#flush ??= setTimeout(() => {
      this.#flush = undefined;
      const keys = [...this.#pending];
      this.#pending.clear();
      this.#emit({ keys });
    }, COALESCE_MS);
  }

  #emit(signal: ChangeSignal): void {
    for (const subscriber of [...this.#subscribers]) {
      try {
        subscriber(signal);
      } catch {
        // a subscriber's failure is its own; the others still hear of the change
      }
    }
  }
}

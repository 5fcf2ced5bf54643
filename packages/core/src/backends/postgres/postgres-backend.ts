import { StorageBackend, type BackendOptions, type RemoveOptions, type WriteOptions } from '../../seam/backend.js';
import { capabilities, type Capabilities } from '../../seam/capabilities.js';
import type { ChangeFeed } from '../../seam/change-feed.js';
import type { Info } from '../../seam/info.js';
import type { Locator } from '../../seam/locator.js';
import type { StepLeases } from '../../seam/step-leases.js';
import { PgChangeFeed } from './changes.js';
import { PgConnection } from './connection.js';
import { Entries } from './entries.js';
import { PgStepLeases } from './leases.js';
import { postgresSettings, type PostgresSettings } from './settings.js';

export const POSTGRES_PROTOCOL = 'postgres';

/**
 * What the backend is built from: an explicit `url` (tests, tools) or, from selection, the config and
 * environment (`postgres.url` / `AGENTM_PG_URL`, `postgres.schema`, `postgres.lease_ms`, the `PG*`
 * variables and `~/.pgpass`).
 */
export interface PostgresBackendOptions extends BackendOptions {
  readonly url?: string;
  readonly schema?: string;
  readonly leaseMs?: number;
  readonly config?: Readonly<Record<string, unknown>>;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly home?: string;
  /** How often the listening connection is checked (default 10 s). */
  readonly heartbeatMs?: number;
}

/**
 * A store shared by a team's machines: every file and folder is a row of a PostgreSQL table (key,
 * bytes, sha256, when and by whom written), behind the same seven verbs. A compare-and-swap is one
 * conditional `UPDATE`, so a lost update is impossible across machines, not only within one;
 * `withLock` is a transaction whose reads lock what they read; step claims are leases; readers follow
 * the change cursor and LISTEN/NOTIFY instead of walking and watching files.
 *
 * Constructing connects to nothing: the first verb opens the pool and brings the tables up to date, and
 * throws the typed errors of `errors.ts` (unreachable, refused, no such database, a newer schema) —
 * never falls back to another store. Settings are checked at construction (`PostgresConfigError`).
 */
export class PostgresBackend extends StorageBackend {
  static readonly declaredCapabilities: Capabilities = capabilities({ concurrentWriters: true, sync: true });
  readonly capabilities = PostgresBackend.declaredCapabilities;
  readonly settings: PostgresSettings;
  readonly #db: PgConnection;
  readonly #entries: Entries;
  readonly #feed: PgChangeFeed;
  readonly #leases: PgStepLeases;

  /** The store these options select (no connection); throws `PostgresConfigError` for options the backend refuses. */
  static describeStore(options: BackendOptions): string {
    return settingsOf(options as PostgresBackendOptions).storeId;
  }

  constructor(options: PostgresBackendOptions = {}) {
    super();
    this.settings = settingsOf(options);
    this.#db = new PgConnection(this.settings);
    this.#entries = new Entries(this.#db);
    this.#feed = new PgChangeFeed(
      this.#db,
      options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs },
    );
    this.#leases = new PgStepLeases(this.#db, this.settings.leaseTtlMs);
  }

  override get storeId(): string {
    return this.settings.storeId;
  }

  override get changeFeed(): ChangeFeed {
    return this.#feed;
  }

  override get stepLeases(): StepLeases {
    return this.#leases;
  }

  override get conflictStrategy(): string {
    return 'compare-and-swap';
  }

  read(locator: Locator): Promise<string> {
    return this.#entries.read(locator);
  }

  async write(locator: Locator, content: string, options: WriteOptions = {}): Promise<Locator> {
    if (typeof content !== 'string')
      throw new TypeError(`write(${JSON.stringify(locator.key)}) takes text; got ${typeof content}`);
    await this.#entries.write(locator, content, options.expectHash);
    return locator;
  }

  list(locator: Locator): Promise<Locator[]> {
    return this.#entries.list(locator);
  }

  exists(locator: Locator): Promise<boolean> {
    return this.#entries.exists(locator);
  }

  info(locator: Locator): Promise<Info> {
    return this.#entries.info(locator);
  }

  async mkdir(locator: Locator): Promise<Locator> {
    await this.#entries.mkdir(locator);
    return locator;
  }

  override remove(locator: Locator, options: RemoveOptions = {}): Promise<void> {
    return this.#entries.remove(locator, options.expectHash);
  }

  /**
   * Runs `fn` in one transaction (joining the open one, so it nests): every verb it calls commits with
   * it or not at all, and each file it reads stays locked until then, so a read-modify-write inside is
   * atomic against every other writer of the store, on any machine.
   */
  withLock<T>(fn: () => Promise<T>): Promise<T> {
    return this.#db.transaction(fn);
  }

  /** Stops listening and ends the pool; a later verb opens a new one. */
  override async close(): Promise<void> {
    await this.#feed.close();
    await this.#db.close();
  }
}

function settingsOf(options: PostgresBackendOptions): PostgresSettings {
  return postgresSettings({
    url: options.url,
    schema: options.schema,
    leaseMs: options.leaseMs,
    config: options.config,
    env: options.env ?? process.env,
    home: options.home,
  });
}

import { AgentMError, EXIT_USAGE } from '../../seam/errors.js';
import { ConcurrentModificationError } from '../../write-protocol/errors.js';

/**
 * The postgres backend's errors. Every message names the store by its password-free URL (`storeId`) and
 * says what to do; none ever carries a password (it is never in a URL AgentM accepts, and the driver's
 * own messages are not passed through unfiltered). A configured postgres store that cannot be used is
 * one of these, never a fall-back to another backend.
 */
export class PostgresStoreError extends AgentMError {
  constructor(message: string, options: { code: string; cause?: unknown }) {
    super(message, options);
  }
}

/** The connection settings are unusable: nothing is configured, the URL is malformed, or it holds a password. */
export class PostgresConfigError extends PostgresStoreError {
  override readonly exitCode: number = EXIT_USAGE;
  constructor(message: string) {
    super(message, { code: 'EPGCONFIG' });
  }
}

/** The server cannot be reached (refused, unknown host, timed out, or it went away and did not come back). */
export class PostgresUnreachableError extends PostgresStoreError {
  constructor(store: string, detail: string, cause?: unknown) {
    super(
      `cannot reach the PostgreSQL server of ${store} (${detail}). Check that the server runs and accepts TCP ` +
        'connections from this machine, or fix the host and port in postgres.url / AGENTM_PG_URL (agentm config set postgres.url postgres://user@host:5432/db).',
      { code: 'EPGUNREACHABLE', cause },
    );
  }
}

/** The server refused the user (wrong or missing password, or no pg_hba.conf entry for it). */
export class PostgresAuthError extends PostgresStoreError {
  constructor(store: string, user: string, cause?: unknown) {
    super(
      `the PostgreSQL server of ${store} refused user '${user}' (wrong or missing password, or pg_hba.conf does not ` +
        'let it in). Put the password in ~/.pgpass (host:port:database:user:password, mode 0600) or in PGPASSWORD — ' +
        'never in postgres.url — or ask the database owner to grant access.',
      { code: 'EPGAUTH', cause },
    );
  }
}

/** The database named in the URL does not exist on the server. */
export class PostgresDatabaseMissingError extends PostgresStoreError {
  constructor(store: string, database: string, cause?: unknown) {
    super(
      `the database '${database}' of ${store} does not exist on that server. Create it (createdb ${database}, or ` +
        `CREATE DATABASE ${database} as its owner), or point postgres.url at an existing one; AgentM creates its own tables.`,
      { code: 'EPGNODATABASE', cause },
    );
  }
}

/** The store was made by a newer AgentM: its schema version is beyond what this one knows. */
export class PostgresSchemaTooNewError extends PostgresStoreError {
  readonly found: number;
  readonly known: number;
  constructor(store: string, found: number, known: number) {
    super(
      `the AgentM tables of ${store} are at schema version ${found}, newer than this AgentM understands (${known}). ` +
        'Upgrade AgentM on this machine (every machine sharing the store needs a version that knows its schema); ' +
        'nothing was read or written.',
      { code: 'EPGSCHEMATOONEW' },
    );
    this.found = found;
    this.known = known;
  }
}

/** The server answered with an error AgentM does not turn into one of the above (permissions, disk full, …). */
export class PostgresQueryError extends PostgresStoreError {
  constructor(store: string, what: string, detail: string, cause?: unknown) {
    super(`PostgreSQL refused to ${what} in ${store}: ${detail}`, { code: 'EPGQUERY', cause });
  }
}

/**
 * A transaction lost a race the database settled by aborting it (a deadlock or a serialization
 * failure): nothing it did was kept. A `ConcurrentModificationError`, so every caller that retries a
 * lost compare-and-swap from a fresh read retries this too.
 */
export class PostgresTransactionConflictError extends ConcurrentModificationError {
  constructor(store: string, detail: string) {
    super(store, null, null, `the transaction was aborted by the database (${detail}); nothing was written`);
  }
}

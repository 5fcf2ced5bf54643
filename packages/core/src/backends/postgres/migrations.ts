import type { PoolClient } from 'pg';
import { PostgresSchemaTooNewError } from './errors.js';
import type { PostgresSettings } from './settings.js';

/** One versioned change of the store's tables. Applied in order, each exactly once per schema. */
interface Migration {
  readonly version: number;
  readonly about: string;
  readonly sql: (schema: string) => string;
}

/**
 * The store's tables, by version. Never edit a released migration: add the next one. Every table lives
 * in the configured schema, so one database can hold several stores.
 *
 * - `store`: one row, the store's random id (a change cursor of another store, or of this one dropped and
 *   made again, is recognised as foreign).
 * - `entries`: one row per file or folder (`key`, `parent` for listing, the bytes, their sha256, size,
 *   when and by whom it was last written) and the id of the transaction that wrote it (`xid`), which is
 *   the change cursor. A removed file stays as a tombstone (`deleted`) so readers of the cursor see it go.
 * - `leases`: step leases (plan key, step id → holder, attempt, token, expiry).
 * - A trigger notifies `agentm_<schema>` with the key of every file written or removed (LISTEN/NOTIFY).
 */
const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    about: 'entries, leases and change notifications',
    sql: (s) => `
      CREATE TABLE ${s}.store (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      );
      INSERT INTO ${s}.store DEFAULT VALUES;
      CREATE TABLE ${s}.entries (
        key text COLLATE "C" PRIMARY KEY,
        parent text COLLATE "C" NOT NULL,
        is_dir boolean NOT NULL,
        deleted boolean NOT NULL DEFAULT false,
        content bytea,
        sha256 text,
        size bigint NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_by text NOT NULL DEFAULT '',
        xid xid8 NOT NULL DEFAULT pg_current_xact_id()
      );
      CREATE INDEX entries_children ON ${s}.entries (parent, key) WHERE NOT deleted;
      CREATE INDEX entries_changes ON ${s}.entries (xid);
      CREATE TABLE ${s}.leases (
        scope text COLLATE "C" NOT NULL,
        step text COLLATE "C" NOT NULL,
        holder text,
        attempt integer,
        token uuid,
        expires_at timestamptz,
        PRIMARY KEY (scope, step)
      );
      CREATE FUNCTION ${s}.notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('agentm_' || TG_TABLE_SCHEMA, NEW.key);
        RETURN NULL;
      END $$;
      CREATE TRIGGER entries_notify AFTER INSERT OR UPDATE ON ${s}.entries
        FOR EACH ROW WHEN (NOT NEW.is_dir) EXECUTE FUNCTION ${s}.notify_change();
    `,
  },
];

/** The newest schema version this AgentM knows. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** The channel the store's changes are notified on. */
export function changeChannel(schema: string): string {
  return `agentm_${schema}`;
}

/** The schema's version (0: no AgentM tables yet). */
async function currentVersion(client: PoolClient, schema: string): Promise<number> {
  const exists = await client.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [
    `${schema}.migrations`,
  ]);
  if (!exists.rows[0]?.present) return 0;
  const row = await client.query<{ version: number | null }>(
    `SELECT max(version) AS version FROM ${schema}.migrations`,
  );
  return row.rows[0]?.version ?? 0;
}

/**
 * Brings the schema to `SCHEMA_VERSION`: when it is behind, in one transaction holding an advisory lock
 * on the schema's name, so processes starting at once (on any machine) migrate once and the others find
 * it done; each applied version is recorded with who applied it. A schema newer than this AgentM knows
 * is refused (`PostgresSchemaTooNewError`) before anything is read or written. `applied_by` names this
 * process (`pid@host`).
 */
export async function migrate(client: PoolClient, settings: PostgresSettings, appliedBy: string): Promise<void> {
  const schema = settings.schema;
  const seen = await currentVersion(client, schema);
  if (seen > SCHEMA_VERSION) throw new PostgresSchemaTooNewError(settings.storeId, seen, SCHEMA_VERSION);
  if (seen === SCHEMA_VERSION) return;
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`agentm:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.migrations (
         version integer PRIMARY KEY, about text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT clock_timestamp(), applied_by text NOT NULL)`,
    );
    const version = await currentVersion(client, schema);
    if (version > SCHEMA_VERSION) throw new PostgresSchemaTooNewError(settings.storeId, version, SCHEMA_VERSION);
    for (const migration of MIGRATIONS) {
      if (migration.version <= version) continue;
      await client.query(migration.sql(schema));
      await client.query(`INSERT INTO ${schema}.migrations (version, about, applied_by) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.about,
        appliedBy,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

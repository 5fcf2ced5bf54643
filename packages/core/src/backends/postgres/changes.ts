import type { ChangeBatch, ChangeFeed, ChangeSignal, StoreChange } from '../../seam/change-feed.js';
import { Locator } from '../../seam/locator.js';
import type { PgConnection } from './connection.js';
import { ChangeListener } from './listener.js';

interface ChangeRow {
  readonly key: string;
  readonly deleted: boolean;
  readonly size: string;
  readonly mtime: number;
}

/**
 * The store's change feed. The cursor is the id of the store and the oldest transaction still running
 * when the last batch was read (`pg_snapshot_xmin`): every row carries the id of the transaction that
 * last wrote it, so "written since" is `xid >= cursor` — which also catches a transaction that started
 * before the last read and committed after it (a plain sequence number would miss it, since numbers are
 * taken in one order and committed in another). A row may be reported twice, never missed.
 */
export class PgChangeFeed implements ChangeFeed {
  readonly #db: PgConnection;
  readonly #listener: ChangeListener;
  #id: string | undefined;

  constructor(db: PgConnection, options: { heartbeatMs?: number } = {}) {
    this.#db = db;
    this.#listener = new ChangeListener(db, options);
  }

  /**
   * Changes since `cursor`; a cursor of another store (or none) gives every present file, marked `full`.
   * One statement, so the rows and the new cursor come from one snapshot: the head row (the store's id
   * and the snapshot's oldest running transaction) joined to the rows written since.
   */
  async changedSince(cursor: string | undefined): Promise<ChangeBatch> {
    const s = this.#db.settings.schema;
    const id = await this.#storeId();
    const since = parseCursor(cursor, id);
    const { rows } = await this.#db.query<Partial<ChangeRow> & { xmin: string }>(
      'read what changed',
      `SELECT h.xmin, e.key, e.deleted, e.size, extract(epoch FROM e.updated_at)::float8 * 1000 AS mtime
       FROM (SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin) AS h
       LEFT JOIN ${s}.entries AS e
         ON NOT e.is_dir AND ${since === undefined ? 'NOT e.deleted' : 'e.xid >= $1::xid8'}`,
      since === undefined ? [] : [since],
    );
    const changes = rows.filter((r): r is ChangeRow & { xmin: string } => typeof r.key === 'string').map(toChange);
    return { changes, cursor: `${id}:${rows[0]!.xmin}`, full: since === undefined };
  }

  /** The store's random id (it never changes: read once). */
  async #storeId(): Promise<string> {
    if (this.#id === undefined) {
      const { rows } = await this.#db.query<{ id: string }>(
        'read the store id',
        `SELECT id::text AS id FROM ${this.#db.settings.schema}.store LIMIT 1`,
      );
      this.#id = rows[0]!.id;
    }
    return this.#id;
  }

  subscribe(listener: (signal: ChangeSignal) => void): () => void {
    return this.#listener.subscribe(listener);
  }

  close(): Promise<void> {
    return this.#listener.close();
  }
}

/** The transaction id of a cursor of this store; undefined for none, a malformed one, or another store's. */
function parseCursor(cursor: string | undefined, storeId: string): string | undefined {
  const m = /^([0-9a-f-]{36}):(\d+)$/.exec(cursor ?? '');
  return m && m[1] === storeId ? m[2] : undefined;
}

function toChange(row: ChangeRow): StoreChange {
  const locator = new Locator(row.key);
  if (row.deleted) return { locator, removed: true };
  return { locator, removed: false, info: { locator, isDir: false, size: Number(row.size), mtimeMs: row.mtime } };
}

import { NotFoundError } from '../../seam/errors.js';
import type { Info } from '../../seam/info.js';
import { Locator } from '../../seam/locator.js';
import { contentHash } from '../../write-protocol/content-hash.js';
import { checkExpectation } from '../../write-protocol/cas-write.js';
import { ConcurrentModificationError } from '../../write-protocol/errors.js';
import type { QueryResultRow } from 'pg';
import type { PgConnection } from './connection.js';

/** What the statements below read of a row. */
interface RowFacts {
  readonly is_dir: boolean;
  readonly sha256: string | null;
}

/** `a/b/c` → `['a', 'a/b']`: the folders above a key, outermost first. */
export function ancestorsOf(locator: Locator): string[] {
  return locator.parts.slice(0, -1).map((_, i) => locator.parts.slice(0, i + 1).join('/'));
}

/** The parent key of a key (`''` for a top-level name). */
export function parentKey(key: string): string {
  const slash = key.lastIndexOf('/');
  return slash < 0 ? '' : key.slice(0, slash);
}

/**
 * The statements over the `entries` table, one idea each: a verb is one statement (a conditional
 * `UPDATE` for a compare-and-swap; an insert that creates the missing folders above it in the same
 * statement), so it is atomic on its own and inside any transaction it joins.
 */
export class Entries {
  readonly #db: PgConnection;
  readonly #t: string;
  /**
   * Folders this handle made or found: a write into one of them needs no folders made above it and
   * cannot meet a file in the way (folders are never removed, and everything above a folder is one).
   */
  readonly #dirs = new Set<string>();

  constructor(db: PgConnection) {
    this.#db = db;
    this.#t = `${db.settings.schema}.entries`;
  }

  /**
   * One row of `columns` for a present key, or undefined. Inside a transaction (`withLock`) the key is
   * held until it ends, present or not: first a transaction-scoped advisory lock on it (so two
   * transactions that find it absent do not both create it), then — in a statement of its own, whose
   * snapshot is taken once the lock is held, so it sees what the last holder committed — the lookup,
   * with `lockRow` the row's own lock too (so a plain compare-and-swap waits, then loses): a
   * read-modify-write inside is atomic against every writer.
   */
  async #lookup<R extends QueryResultRow>(what: string, columns: string, locator: Locator, lockRow = false) {
    const transaction = this.#db.inTransaction;
    if (transaction)
      await this.#db.query(what, 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
        `${this.#t}:${locator.key}`,
      ]);
    const { rows } = await this.#db.query<R>(
      what,
      `SELECT ${columns} FROM ${this.#t} WHERE key = $1 AND NOT deleted${transaction && lockRow ? ' FOR UPDATE' : ''}`,
      [locator.key],
    );
    return rows[0];
  }

  /** The text of a file (see `#lookup` for what a read inside a transaction holds). */
  async read(locator: Locator): Promise<string> {
    if (locator.isRoot) throw new NotFoundError('', 'it is a directory, not a file');
    const row = await this.#lookup<{ is_dir: boolean; content: Buffer | null }>(
      'read a file',
      'is_dir, content',
      locator,
      true,
    );
    if (!row) throw new NotFoundError(locator.key);
    if (row.is_dir) throw new NotFoundError(locator.key, 'it is a directory, not a file');
    return (row.content ?? Buffer.alloc(0)).toString('utf8');
  }

  /**
   * Stores `content`. With a hash expectation: one `UPDATE … WHERE sha256 = $expected` (a lost update is
   * impossible from any machine). Expecting absence: an insert that only replaces a tombstone. Without
   * one: an update, else an insert. A lost connection is retried only after checking whether the first
   * try landed (the row then holds exactly these bytes), so a retry never reports a conflict with itself.
   */
  async write(locator: Locator, content: string, expectHash: string | null | undefined): Promise<void> {
    if (locator.isRoot) throw new NotFoundError('', 'it is a directory, not a file');
    const bytes = Buffer.from(content, 'utf8');
    const hash = contentHash(bytes);
    await this.#db.withReconnect('write a file', async (retry) => {
      if (retry > 0 && (await this.#facts(locator))?.sha256 === hash) return;
      const written =
        typeof expectHash === 'string'
          ? await this.#update(locator, bytes, hash, expectHash)
          : (expectHash === undefined && (await this.#update(locator, bytes, hash, undefined))) ||
            (await this.#insert(locator, bytes, hash, expectHash === null));
      if (!written) await this.#explainRefusal(locator, expectHash);
      // Inside a transaction the folders count as made only once it commits; outside, they are.
      if (!this.#db.inTransaction) for (const dir of ancestorsOf(locator)) this.#dirs.add(dir);
    });
  }

  async #update(locator: Locator, bytes: Buffer, hash: string, expect: string | undefined): Promise<boolean> {
    const { rowCount } = await this.#db.query(
      'write a file',
      `UPDATE ${this.#t} SET content = $2, sha256 = $3, size = $4, updated_at = clock_timestamp(), updated_by = $5,
         xid = pg_current_xact_id()
       WHERE key = $1 AND NOT deleted AND NOT is_dir AND ($6::text IS NULL OR sha256 = $6)`,
      [locator.key, bytes, hash, bytes.length, this.#db.writer, expect ?? null],
    );
    return rowCount === 1;
  }

  /** Inserts the file and every missing folder above it, unless a file is in the way; replaces a tombstone (and a live file unless `onlyAbsent`). */
  async #insert(locator: Locator, bytes: Buffer, hash: string, onlyAbsent: boolean): Promise<boolean> {
    const parent = parentKey(locator.key);
    if (parent === '' || this.#dirs.has(parent)) {
      const { rowCount } = await this.#db.query(
        'write a file',
        `INSERT INTO ${this.#t} AS t (key, parent, is_dir, content, sha256, size, updated_by)
         VALUES ($1, $6, false, $2, $3, $4, $5)
         ON CONFLICT (key) DO UPDATE SET content = EXCLUDED.content, sha256 = EXCLUDED.sha256, size = EXCLUDED.size,
           updated_at = clock_timestamp(), updated_by = EXCLUDED.updated_by, deleted = false, xid = pg_current_xact_id()
           WHERE NOT t.is_dir AND (t.deleted OR NOT $7::boolean)`,
        [locator.key, bytes, hash, bytes.length, this.#db.writer, parent, onlyAbsent],
      );
      return rowCount === 1;
    }
    const ancestors = ancestorsOf(locator);
    const { rowCount } = await this.#db.query(
      'write a file',
      `WITH blocked AS (
         SELECT 1 FROM ${this.#t} WHERE key = ANY($6::text[]) AND NOT is_dir AND NOT deleted
       ), dirs AS (
         INSERT INTO ${this.#t} AS t (key, parent, is_dir, updated_by)
         SELECT d.k, d.p, true, $5 FROM unnest($6::text[], $7::text[]) AS d(k, p)
         WHERE NOT EXISTS (SELECT 1 FROM blocked)
         ON CONFLICT (key) DO UPDATE SET is_dir = true, deleted = false, content = NULL, sha256 = NULL, size = 0
           WHERE t.deleted
       )
       INSERT INTO ${this.#t} AS t (key, parent, is_dir, content, sha256, size, updated_by)
       SELECT $1, $8, false, $2, $3, $4, $5 WHERE NOT EXISTS (SELECT 1 FROM blocked)
       ON CONFLICT (key) DO UPDATE SET content = EXCLUDED.content, sha256 = EXCLUDED.sha256, size = EXCLUDED.size,
         updated_at = clock_timestamp(), updated_by = EXCLUDED.updated_by, deleted = false, xid = pg_current_xact_id()
         WHERE NOT t.is_dir AND (t.deleted OR NOT $9::boolean)`,
      [
        locator.key,
        bytes,
        hash,
        bytes.length,
        this.#db.writer,
        ancestors,
        ancestors.map(parentKey),
        parentKey(locator.key),
        onlyAbsent,
      ],
    );
    return rowCount === 1;
  }

  /** Why a write changed nothing: a folder there or in the way (`NotFoundError`), or a lost compare-and-swap. */
  async #explainRefusal(locator: Locator, expectHash: string | null | undefined): Promise<never> {
    const blocking = await this.#db.query<{ key: string }>(
      'write a file',
      `SELECT key FROM ${this.#t} WHERE key = ANY($1::text[]) AND NOT is_dir AND NOT deleted ORDER BY key LIMIT 1`,
      [ancestorsOf(locator)],
    );
    if (blocking.rows[0]) throw new NotFoundError(blocking.rows[0].key, 'a file is in the way of the directory');
    const facts = await this.#facts(locator);
    if (facts?.is_dir) throw new NotFoundError(locator.key, 'it is a directory, not a file');
    checkExpectation(locator.key, expectHash, facts?.sha256 ?? null);
    // The row changed again between the refused write and this look: still a lost race.
    throw new ConcurrentModificationError(
      locator.key,
      expectHash ?? null,
      facts?.sha256 ?? null,
      'it changed while it was being written',
    );
  }

  async #facts(locator: Locator): Promise<RowFacts | undefined> {
    const { rows } = await this.#db.query<RowFacts>(
      'read a file',
      `SELECT is_dir, sha256 FROM ${this.#t} WHERE key = $1 AND NOT deleted`,
      [locator.key],
    );
    return rows[0];
  }

  /** Removes a file (a tombstone stays for the change cursor), only if it still hashes to `expectHash` when given. */
  async remove(locator: Locator, expectHash: string | undefined): Promise<void> {
    const { rowCount } = await this.#db.query(
      'remove a file',
      `UPDATE ${this.#t} SET deleted = true, content = NULL, sha256 = NULL, size = 0, updated_at = clock_timestamp(),
         updated_by = $2, xid = pg_current_xact_id()
       WHERE key = $1 AND NOT deleted AND NOT is_dir AND ($3::text IS NULL OR sha256 = $3)`,
      [locator.key, this.#db.writer, expectHash ?? null],
    );
    if (rowCount === 1) return;
    const facts = await this.#facts(locator);
    if (!facts) throw new NotFoundError(locator.key);
    if (facts.is_dir) throw new NotFoundError(locator.key, 'it is a directory; only files are removed');
    checkExpectation(locator.key, expectHash, facts.sha256);
  }

  /** Immediate children, sorted as the other backends sort (by UTF-16 code units). */
  async list(locator: Locator): Promise<Locator[]> {
    const { rows } = await this.#db.query<{ key: string }>(
      'list a folder',
      `SELECT key FROM ${this.#t} WHERE parent = $1 AND NOT deleted`,
      [locator.key],
    );
    return rows
      .map((r) => r.key)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((key) => new Locator(key));
  }

  async exists(locator: Locator): Promise<boolean> {
    return locator.isRoot || (await this.#lookup('look up a file', 'is_dir', locator)) !== undefined;
  }

  async info(locator: Locator): Promise<Info> {
    if (locator.isRoot) return Object.freeze({ locator, isDir: true, size: 0, mtimeMs: 0 });
    const row = await this.#lookup<{ is_dir: boolean; size: string; mtime: number }>(
      'look up a file',
      'is_dir, size, extract(epoch FROM updated_at)::float8 * 1000 AS mtime',
      locator,
    );
    if (!row) throw new NotFoundError(locator.key);
    return Object.freeze({ locator, isDir: row.is_dir, size: Number(row.size), mtimeMs: row.mtime });
  }

  /** Creates a folder and those above it; a file in the way is `NotFoundError`, as in the other stores. */
  async mkdir(locator: Locator): Promise<void> {
    if (locator.isRoot) return;
    const keys = [...ancestorsOf(locator), locator.key];
    const { rows } = await this.#db.query<{ key: string }>(
      'create a folder',
      `WITH blocked AS (
         SELECT key FROM ${this.#t} WHERE key = ANY($1::text[]) AND NOT is_dir AND NOT deleted
       ), made AS (
         INSERT INTO ${this.#t} AS t (key, parent, is_dir, updated_by)
         SELECT d.k, d.p, true, $3 FROM unnest($1::text[], $2::text[]) AS d(k, p)
         WHERE NOT EXISTS (SELECT 1 FROM blocked)
         ON CONFLICT (key) DO UPDATE SET is_dir = true, deleted = false, content = NULL, sha256 = NULL, size = 0
           WHERE t.deleted
       )
       SELECT key FROM blocked ORDER BY key LIMIT 1`,
      [keys, keys.map(parentKey), this.#db.writer],
    );
    if (rows[0]) throw new NotFoundError(rows[0].key, 'a file is in the way of the directory');
    if (!this.#db.inTransaction) for (const key of keys) this.#dirs.add(key);
  }
}

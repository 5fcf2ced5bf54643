import type { Locator } from '../../seam/locator.js';
import type { LeaseEdit, LeaseRecord, StepLease, StepLeases } from '../../seam/step-leases.js';
import type { PgConnection } from './connection.js';

interface LeaseRow {
  readonly step: string;
  readonly holder: string | null;
  readonly attempt: number | null;
  readonly token: string | null;
  readonly remaining: number | null;
}

function record(row: LeaseRow): LeaseRecord | undefined {
  return row.holder === null || row.token === null
    ? undefined
    : { holder: row.holder, attempt: row.attempt ?? 0, token: row.token, remainingMs: row.remaining ?? 0 };
}

const COLUMNS = `step, holder, attempt, token::text AS token,
  (extract(epoch FROM expires_at - clock_timestamp()) * 1000)::float8 AS remaining`;

/**
 * Step leases in the `leases` table: one row per (plan, step), locked with `FOR UPDATE [SKIP LOCKED]`
 * for the length of a claim, a takeover or a record. Expiry is the server's clock, so machines with
 * skewed clocks agree on it; every grant draws a new random token, which is what a holder's heartbeat
 * and record are checked against (fencing: a paused holder whose lease was taken over renews nothing
 * and records nothing).
 */
export class PgStepLeases implements StepLeases {
  readonly ttlMs: number;
  readonly #db: PgConnection;
  readonly #t: string;

  constructor(db: PgConnection, ttlMs: number) {
    this.#db = db;
    this.ttlMs = ttlMs;
    this.#t = `${db.settings.schema}.leases`;
  }

  withLease<T>(
    scope: Locator,
    step: string,
    options: { readonly skipLocked: boolean },
    fn: (current: LeaseRecord | undefined, edit: LeaseEdit) => Promise<T>,
  ): Promise<{ readonly value: T } | undefined> {
    const key = [scope.key, step];
    // The row is made first, in a statement of its own and only when it is missing: an insert that meets
    // a row another claim's transaction is changing waits for that transaction, where SKIP LOCKED must
    // pass it by.
    const made = this.#db.query(
      'create a lease row',
      `INSERT INTO ${this.#t} (scope, step) SELECT $1, $2
       WHERE NOT EXISTS (SELECT 1 FROM ${this.#t} WHERE scope = $1 AND step = $2) ON CONFLICT DO NOTHING`,
      key,
    );
    return made.then(() =>
      this.#db.transaction(async () => {
        const { rows } = await this.#db.query<LeaseRow>(
          'lock a lease',
          `SELECT ${COLUMNS} FROM ${this.#t} WHERE scope = $1 AND step = $2 FOR UPDATE${options.skipLocked ? ' SKIP LOCKED' : ''}`,
          key,
        );
        if (rows.length === 0) return undefined; // another transaction is claiming or taking it over right now
        const edit: LeaseEdit = {
          grant: async (holder, attempt) => {
            const granted = await this.#db.query<{ token: string }>(
              'grant a lease',
              `UPDATE ${this.#t} SET holder = $3, attempt = $4, token = gen_random_uuid(),
               expires_at = clock_timestamp() + $5 * interval '1 millisecond'
             WHERE scope = $1 AND step = $2 RETURNING token::text AS token`,
              [...key, holder, attempt, this.ttlMs],
            );
            return { scope: scope.key, step, holder, attempt, token: granted.rows[0]!.token };
          },
          release: async () => {
            await this.#db.query(
              'release a lease',
              `UPDATE ${this.#t} SET holder = NULL, attempt = NULL, token = NULL, expires_at = NULL WHERE scope = $1 AND step = $2`,
              key,
            );
          },
        };
        return { value: await fn(record(rows[0]!), edit) };
      }),
    );
  }

  async renew(lease: StepLease): Promise<boolean> {
    const { rowCount } = await this.#db.query(
      'renew a lease',
      `UPDATE ${this.#t} SET expires_at = clock_timestamp() + $4 * interval '1 millisecond'
       WHERE scope = $1 AND step = $2 AND token = $3::uuid`,
      [lease.scope, lease.step, lease.token, this.ttlMs],
    );
    return rowCount === 1;
  }

  async list(scope: Locator): Promise<ReadonlyMap<string, LeaseRecord>> {
    const { rows } = await this.#db.query<LeaseRow>(
      'read leases',
      `SELECT ${COLUMNS} FROM ${this.#t} WHERE scope = $1 AND holder IS NOT NULL`,
      [scope.key],
    );
    return new Map(rows.flatMap((row) => (record(row) ? [[row.step, record(row)!] as const] : [])));
  }
}

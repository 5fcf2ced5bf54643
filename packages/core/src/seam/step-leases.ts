import type { Locator } from './locator.js';

/** A lease as the store holds it: who runs which step, at which attempt, and for how much longer. */
export interface LeaseRecord {
  readonly holder: string;
  readonly attempt: number;
  /** Changes with every grant: what a holder proves it still holds the lease with (fencing). */
  readonly token: string;
  /** Milliseconds left by the store's clock (one clock for every machine); ≤ 0 once expired. */
  readonly remainingMs: number;
}

/** A lease this process was granted. */
export interface StepLease {
  readonly scope: string;
  readonly step: string;
  readonly holder: string;
  readonly attempt: number;
  readonly token: string;
}

/** What may be done to a locked lease row inside `withLease`. */
export interface LeaseEdit {
  /** Grants a fresh lease (a new token, the full time to live), replacing whatever was there. */
  grant(holder: string, attempt: number): Promise<StepLease>;
  /** Clears the lease (the step is finished or handed back). */
  release(): Promise<void>;
}

/**
 * Step leases: an optional capability of `StorageBackend` (`stepLeases`) for stores shared by several
 * machines, where a claim must not depend on seeing another machine's processes. A lease is held for
 * `ttlMs` unless renewed; an expired lease may be taken over from any machine.
 *
 * `withLease` runs `fn` in one transaction (the backend's `withLock`, joined when one is open) with the
 * lease row of (`scope`, `step`) locked: every verb `fn` calls on the backend is part of it, so a claim,
 * its plan write and its grant commit together or not at all. With `skipLocked`, a row another
 * transaction holds is skipped at once (`undefined`): somebody is claiming that step right now.
 */
export interface StepLeases {
  readonly ttlMs: number;
  withLease<T>(
    scope: Locator,
    step: string,
    options: { readonly skipLocked: boolean },
    fn: (current: LeaseRecord | undefined, edit: LeaseEdit) => Promise<T>,
  ): Promise<{ readonly value: T } | undefined>;
  /** Extends a held lease by `ttlMs`; false when its token no longer holds it (taken over or released). */
  renew(lease: StepLease): Promise<boolean>;
  /** Every lease of `scope`, by step. */
  list(scope: Locator): Promise<ReadonlyMap<string, LeaseRecord>>;
}

import type { LeaseEdit, LeaseRecord, StepLease } from '../../seam/step-leases.js';
import type { Observation } from '../observations/observation.js';

/** A plan's text and the content hash (sha256 hex of its UTF-8 bytes) a CAS write must expect. */
export interface PlanSnapshot {
  readonly text: string;
  readonly hash: string;
}

/** One atomic change: a compare-and-swap plan write and/or observations appended to the progress log. */
export interface PlanCommit {
  /** The new plan text and the hash it replaces (`null`: the plan must not exist yet). */
  readonly plan?: { readonly text: string; readonly expectHash: string | null };
  readonly observations?: readonly Observation[];
}

/**
 * The narrow interface the harness does all its plan I/O through. Implementations: over a
 * `StorageBackend` and two `Locator`s (`BackendPlanFiles`), over two local paths (`LocalPlanFiles`), and
 * any an editor provides.
 *
 * Contract: `commit` runs under one lock. The plan write is a CAS: when the plan's current hash is not
 * `expectHash`, it throws `ConcurrentModificationError`, writes nothing and appends nothing. Observations
 * are appended after the plan write (the progress file's other bytes are kept), in order, never lost
 * to a concurrent appender (a read-modify-write with its own CAS, retried).
 */
export interface PlanFiles {
  /** The plan's name: `PLAN` for the singleton pair, else the `<name>` of `PLAN-<name>.md`. */
  readonly name: string;
  /** Where the plan and progress files are, for messages (a path or a locator key). */
  readonly planLabel: string;
  readonly progressLabel: string;
  /** The plan, or undefined when there is no plan file. */
  readPlan(): Promise<PlanSnapshot | undefined>;
  /** The progress log's text; `''` when there is none. */
  readProgress(): Promise<string>;
  commit(change: PlanCommit): Promise<void>;
  /** Calls `listener` (debounced) when either file changes; returns the disposer. Optional. */
  watch?(listener: () => void): () => void;
  /**
   * Step leases for this plan, when its store has them (`StorageBackend.stepLeases`): the reconciler then
   * claims with a lease renewed while the step runs, takes over expired ones from any machine, and
   * records only while it still holds one. Absent: claims are judged by the claimant's process.
   */
  readonly leases?: PlanLeases;
}

/**
 * The store's step leases bound to one plan (see `StepLeases`). `withStep` runs `fn` in one transaction
 * with the step's lease row locked; every plan read and commit `fn` makes through these plan files is
 * part of it. `undefined` when `skipLocked` found the row held by another transaction.
 */
export interface PlanLeases {
  readonly ttlMs: number;
  withStep<T>(
    step: string,
    options: { readonly skipLocked: boolean },
    fn: (current: LeaseRecord | undefined, edit: LeaseEdit) => Promise<T>,
  ): Promise<{ readonly value: T } | undefined>;
  renew(lease: StepLease): Promise<boolean>;
  /** The plan's leases by step. */
  list(): Promise<ReadonlyMap<string, LeaseRecord>>;
}

/** The id plan-level observations carry in their `step` field. */
export function planObservationId(files: Pick<PlanFiles, 'name'>): string {
  return `plan:${files.name}`;
}

/** The heading a new progress file starts with. */
export function progressHeader(name: string): string {
  return name === 'PLAN' ? '# Progress' : `# Progress: ${name}`;
}

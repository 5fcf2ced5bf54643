import type { LeaseRecord, StepLease } from '../../seam/step-leases.js';
import type { PlanDocument } from '../plan/plan-document.js';
import { findStep } from '../plan/plan-document.js';
import type { PlanLeases } from './plan-files.js';
import type { MutationResult } from './plan-mutation.js';

/**
 * Step claims as leases, for plans whose store has them (`PlanFiles.leases`): the shell around the
 * reconciler's claim, recovery and record when several machines run one plan. Each is one transaction
 * holding the step's lease row, so the plan's Markdown (what people read: the `[/]`, the claimant, the
 * attempt) and the lease change together or not at all.
 */

/** Heartbeats per lifetime: a lease is renewed every third of its time to live. */
export const RENEWALS_PER_TTL = 3;

/**
 * Claims a step: skips it at once when another reconciler is claiming or taking it over right now
 * (`FOR UPDATE SKIP LOCKED` on its lease row); else runs `claim` (the plan's ready → running, by
 * compare-and-swap, inside the same transaction) and, when it moved the step, grants `holder` a lease
 * for the attempt it claimed.
 */
export async function claimUnderLease(
  leases: PlanLeases,
  step: string,
  holder: string,
  claim: () => Promise<MutationResult | undefined>,
): Promise<{ readonly result: MutationResult; readonly lease: StepLease } | undefined> {
  const out = await leases.withStep(step, { skipLocked: true }, async (_current, edit) => {
    const result = await claim();
    if (!result || result.applied.length === 0) return undefined;
    return { result, lease: await edit.grant(holder, findStep(result.doc, step).attempt) };
  });
  return out?.value;
}

/**
 * Takes over the expired leases of running steps (any machine's): for each, in one transaction that
 * first re-checks the lease is still expired (its holder may have renewed since it was listed), `recover`
 * moves the step back (failed, then ready with the attempt bumped; the idempotency key stays) when the
 * plan still shows that holder's attempt running, and the lease is cleared. Returns the steps moved.
 */
export async function takeOverExpired(
  leases: PlanLeases,
  listed: ReadonlyMap<string, LeaseRecord>,
  skip: (step: string) => boolean,
  recover: (step: string, lease: LeaseRecord) => Promise<MutationResult | undefined>,
): Promise<string[]> {
  const moved: string[] = [];
  for (const [step, seen] of listed) {
    if (seen.remainingMs > 0 || skip(step)) continue;
    await leases.withStep(step, { skipLocked: true }, async (current, edit) => {
      if (!current || current.remainingMs > 0 || current.token !== seen.token) return;
      const result = await recover(step, current);
      await edit.release();
      if (result && result.applied.length > 0) moved.push(step);
    });
  }
  return moved;
}

/** Whether the plan still shows `lease`'s holder running that attempt (so a takeover may move it back). */
export function stillRunningUnder(doc: PlanDocument, step: string, lease: LeaseRecord): boolean {
  const s = doc.steps.find((candidate) => candidate.id === step);
  return s !== undefined && s.stored === 'running' && s.agent === lease.holder && s.attempt === lease.attempt;
}

/** Milliseconds until the first live lease not held here expires (when a takeover may become due), if any. */
export function nextExpiryMs(
  listed: ReadonlyMap<string, LeaseRecord>,
  ours: (step: string) => boolean,
): number | undefined {
  let next: number | undefined;
  for (const [step, lease] of listed)
    if (lease.remainingMs > 0 && !ours(step)) next = Math.min(next ?? Infinity, lease.remainingMs);
  return next;
}

/**
 * Renews `lease` every `ttlMs / 3` until stopped. When a renewal finds the lease gone (taken over while
 * this process was paused or cut off, or the plan was edited by hand and re-claimed), `onLost` is called
 * once and the heartbeat stops: the step's work must stop, and its result will not be recorded. A
 * renewal that fails for another reason (the store is restarting) is logged and tried again next beat.
 */
export function startHeartbeat(
  leases: PlanLeases,
  lease: StepLease,
  onLost: () => void,
  log: (line: string) => void,
): () => void {
  let stopped = false;
  let beating = false;
  const beat = async () => {
    if (beating || stopped) return;
    beating = true;
    try {
      if (!(await leases.renew(lease)) && !stopped) {
        stop();
        onLost();
      }
    } catch (error) {
      log(`could not renew the lease of step ${lease.step} (will retry): ${(error as Error).message}`);
    } finally {
      beating = false;
    }
  };
  const timer = setInterval(() => void beat(), Math.max(10, Math.floor(leases.ttlMs / RENEWALS_PER_TTL)));
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}

/**
 * What keeps a running step this process's: the reconciler's stop signal and, with a lease, its
 * heartbeat. `signal` aborts the step's work when the reconciler stops or the lease is lost; `record`
 * writes the step's result under the lease (waiting for its row), telling `write` why the result must be
 * discarded when this process no longer holds it (fencing: the token it was granted is not the one
 * there), else `undefined`; a lease still held is released with the record.
 */
export class StepGuard {
  readonly #abort = new AbortController();
  readonly #onStop = () => this.#abort.abort();
  readonly #stop: AbortSignal;
  readonly #stopHeartbeat: () => void;
  readonly #leases: PlanLeases | undefined;
  readonly #lease: StepLease | undefined;
  /** Why the step's result must not be recorded (its lease was taken over), once that is known. */
  lost: string | undefined;

  constructor(
    stop: AbortSignal,
    leases: PlanLeases | undefined,
    lease: StepLease | undefined,
    log: (line: string) => void,
  ) {
    this.#stop = stop;
    this.#leases = leases;
    this.#lease = lease;
    stop.addEventListener('abort', this.#onStop);
    if (stop.aborted) this.#abort.abort();
    this.#stopHeartbeat =
      leases && lease
        ? startHeartbeat(
            leases,
            lease,
            () => {
              this.lost = 'its lease was taken over by another reconciler while this one was paused or cut off';
              log(`lost the lease of step ${lease.step}: stopping it; its result will not be recorded`);
              this.#abort.abort();
            },
            log,
          )
        : () => undefined;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** The step's work is over: no more heartbeats. */
  end(): void {
    this.#stopHeartbeat();
    this.#stop.removeEventListener('abort', this.#onStop);
  }

  async record(write: (lost: string | undefined) => Promise<void>): Promise<void> {
    const leases = this.#leases;
    const lease = this.#lease;
    if (!leases || !lease) return write(this.lost);
    await leases.withStep(lease.step, { skipLocked: false }, async (current, edit) => {
      if (current?.token !== lease.token) this.lost ??= 'its lease was taken over by another reconciler';
      await write(this.lost);
      if (this.lost === undefined) await edit.release();
    });
  }
}

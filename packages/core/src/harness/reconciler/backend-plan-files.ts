import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Locator } from '../../seam/locator.js';
import { contentHash } from '../../write-protocol/content-hash.js';
import { ConcurrentModificationError } from '../../write-protocol/errors.js';
import { appendObservations } from '../observations/progress-format.js';
import { progressHeader, type PlanCommit, type PlanFiles, type PlanLeases, type PlanSnapshot } from './plan-files.js';

/** Appends retried when another appender (outside our lock: a sync client, an editor) won the CAS. */
export const APPEND_ATTEMPTS = 8;

export interface BackendPlanFilesOptions {
  /** The plan's name (default: derived from the plan locator's file name). */
  readonly name?: string;
  /** How often `watch` polls the two files' metadata (default 1000 ms). */
  readonly pollMs?: number;
}

/** A backend that offers a store-wide lock (the vault backend's `withLock`). */
interface Lockable {
  withLock<T>(fn: () => Promise<T>): Promise<T>;
}

function hasLock(backend: StorageBackend): backend is StorageBackend & Lockable {
  return typeof (backend as Partial<Lockable>).withLock === 'function';
}

/** `PLAN.md` → `PLAN`, `PLAN-build.md` → `build`. */
export function planNameOf(fileName: string): string {
  const stem = fileName.replace(/\.md$/, '');
  return stem === 'PLAN' ? 'PLAN' : stem.replace(/^PLAN-/, '');
}

/**
 * `PlanFiles` over the storage seam: the plan write is the backend's CAS write (`expectHash`); progress
 * appends are read-modify-write with `expectHash`, retried on a lost race; both under the backend's
 * lock when it has one (`VaultBackend.withLock`), so writers on this machine serialize.
 */
export class BackendPlanFiles implements PlanFiles {
  readonly name: string;
  readonly planLabel: string;
  readonly progressLabel: string;
  readonly leases?: PlanLeases;
  readonly #pollMs: number;

  constructor(
    readonly backend: StorageBackend,
    readonly plan: Locator,
    readonly progress: Locator,
    options: BackendPlanFilesOptions = {},
  ) {
    this.name = options.name ?? planNameOf(plan.name);
    this.planLabel = plan.key;
    this.progressLabel = progress.key;
    this.#pollMs = options.pollMs ?? 1000;
    const leases = backend.stepLeases;
    if (leases)
      this.leases = {
        ttlMs: leases.ttlMs,
        withStep: (step, opts, fn) => leases.withLease(plan, step, opts, fn),
        renew: (lease) => leases.renew(lease),
        list: () => leases.list(plan),
      };
  }

  async readPlan(): Promise<PlanSnapshot | undefined> {
    const text = await this.#readOrUndefined(this.plan);
    return text === undefined ? undefined : { text, hash: contentHash(text) };
  }

  async readProgress(): Promise<string> {
    return (await this.#readOrUndefined(this.progress)) ?? '';
  }

  commit(change: PlanCommit): Promise<void> {
    const run = async () => {
      if (change.plan) await this.backend.write(this.plan, change.plan.text, { expectHash: change.plan.expectHash });
      if (change.observations && change.observations.length > 0) await this.#append(change);
    };
    return hasLock(this.backend) ? this.backend.withLock(run) : run();
  }

  /**
   * Tells `listener` when the plan or its progress log changes: from the store's change feed when it has
   * one (any machine's writes, as they commit; a reconnect counts as a change), else by polling their
   * metadata every `pollMs`.
   */
  watch(listener: () => void): () => void {
    const feed = this.backend.changeFeed;
    if (feed) {
      const ours = new Set([this.plan.key, this.progress.key]);
      return feed.subscribe((signal) => {
        if ('resync' in signal || signal.keys.some((key) => ours.has(key))) listener();
      });
    }
    let last = '';
    let stopped = false;
    const poll = async () => {
      const parts: string[] = [];
      for (const loc of [this.plan, this.progress]) {
        const info = await this.backend.info(loc).catch(() => undefined);
        parts.push(info ? `${info.size}:${info.mtimeMs}` : '-');
      }
      const now = parts.join('|');
      if (last !== '' && now !== last && !stopped) listener();
      last = now;
    };
    void poll();
    const timer = setInterval(() => void poll(), this.#pollMs);
    timer.unref?.();
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }

  async #append(change: PlanCommit): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.#readOrUndefined(this.progress);
      const next = appendObservations(current ?? '', change.observations!, progressHeader(this.name));
      try {
        await this.backend.write(this.progress, next, {
          expectHash: current === undefined ? null : contentHash(current),
        });
        return;
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError) || attempt >= APPEND_ATTEMPTS) throw error;
      }
    }
  }

  async #readOrUndefined(locator: Locator): Promise<string | undefined> {
    try {
      return await this.backend.read(locator);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }
}

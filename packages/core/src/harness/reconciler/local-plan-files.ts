import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { contentHash } from '../../write-protocol/content-hash.js';
import { casWriteFile } from '../../write-protocol/cas-write.js';
import { ConcurrentModificationError } from '../../write-protocol/errors.js';
import { withVaultLock, type VaultLockOptions } from '../../write-protocol/vault-lock.js';
import { appendObservations } from '../observations/progress-format.js';
import { APPEND_ATTEMPTS, planNameOf } from './backend-plan-files.js';
import { progressHeader, type PlanCommit, type PlanFiles, type PlanSnapshot } from './plan-files.js';

export interface LocalPlanFilesOptions {
  readonly name?: string;
  /** Options of the lock keyed on the plan's directory (lock root, timeouts). */
  readonly lock?: VaultLockOptions;
  /** Debounce of `watch` (default 150 ms). */
  readonly debounceMs?: number;
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * `PlanFiles` over two local paths (the repo's `.harness/`). Every commit holds the agentm lock keyed on
 * the plan's directory (`withVaultLock(dir)`), and writes each file with `casWriteFile` (temp, fsync,
 * re-check, rename). Without the lock, two processes could both pass the re-check and both rename.
 */
export class LocalPlanFiles implements PlanFiles {
  readonly name: string;
  readonly planLabel: string;
  readonly progressLabel: string;
  readonly #dir: string;

  constructor(
    readonly planPath: string,
    readonly progressPath: string,
    readonly options: LocalPlanFilesOptions = {},
  ) {
    this.planPath = resolve(planPath);
    this.progressPath = resolve(progressPath);
    this.name = options.name ?? planNameOf(basename(this.planPath));
    this.planLabel = this.planPath;
    this.progressLabel = this.progressPath;
    this.#dir = dirname(this.planPath);
  }

  async readPlan(): Promise<PlanSnapshot | undefined> {
    const text = await readOrUndefined(this.planPath);
    return text === undefined ? undefined : { text, hash: contentHash(text) };
  }

  async readProgress(): Promise<string> {
    return (await readOrUndefined(this.progressPath)) ?? '';
  }

  async commit(change: PlanCommit): Promise<void> {
    await mkdir(this.#dir, { recursive: true });
    await withVaultLock(
      this.#dir,
      async () => {
        if (change.plan) await casWriteFile(this.planPath, change.plan.text, { expectHash: change.plan.expectHash });
        if (change.observations && change.observations.length > 0) {
          for (let attempt = 1; ; attempt++) {
            const current = await readOrUndefined(this.progressPath);
            const next = appendObservations(current ?? '', change.observations, progressHeader(this.name));
            try {
              await casWriteFile(this.progressPath, next, {
                expectHash: current === undefined ? null : contentHash(current),
              });
              break;
            } catch (error) {
              if (!(error instanceof ConcurrentModificationError) || attempt >= APPEND_ATTEMPTS) throw error;
            }
          }
        }
      },
      this.options.lock,
    );
  }

  /** Watches the plan's directory (a file watch would be lost on each atomic rename), debounced. */
  watch(listener: () => void): () => void {
    const names = new Set([basename(this.planPath), basename(this.progressPath)]);
    let timer: NodeJS.Timeout | undefined;
    let watcher: FSWatcher | undefined;
    try {
      watcher = fsWatch(this.#dir, { persistent: false }, (_event, file) => {
        if (file !== null && !names.has(file.toString())) return;
        clearTimeout(timer);
        timer = setTimeout(listener, this.options.debounceMs ?? 150);
      });
      watcher.on('error', () => watcher?.close());
    } catch {
      // No directory yet, or no watcher support: the caller's periodic tick still runs.
    }
    return () => {
      clearTimeout(timer);
      watcher?.close();
    };
  }
}

import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Info } from '../../seam/info.js';
import type { MemoryLayout } from '../documents/layout.js';
import type { DocumentLimits } from '../documents/source-documents.js';
import type { KeyFeed } from './feed.js';
import { NOTE_MAPPER, type MemoryIndexOptions } from './index-types.js';
import type { PreparedBatch } from './prepare.js';
import type { ReadRequest, ReadWorkerData } from './read-worker.js';

/** A read worker's answer to a request. */
interface WorkerAnswer {
  readonly id: number;
  readonly batch?: PreparedBatch;
  readonly error?: string;
}

/** A worker and the listeners `run` put on it. */
interface Attached {
  readonly worker: Worker;
  readonly message: (answer: WorkerAnswer) => void;
  readonly error: (error: Error) => void;
  readonly exit: (code: number) => void;
}

/** Keys per message to a worker. */
const BATCH = 256;
/** Batches in flight per worker (one being read while the last one's answer is applied). */
const IN_FLIGHT = 2;

/**
 * Workers a build starts with: one per core but one — the calling thread walks the vault and adopts
 * every batch meanwhile — at least 1, at most 4. (On 2 cores, a second worker only made the three
 * threads compete: a 10 000-note build took more CPU and no less time.)
 */
/**
 * Read workers for a full build, when it qualifies (see `MemoryIndexOptions.workerScript`): a built
 * worker script, a store with a local root, agentm's note mapper, and no embedder.
 */
export function startBuildPool(
  o: MemoryIndexOptions,
  root: string | undefined,
  layout: MemoryLayout,
  limits: DocumentLimits,
): ReadPool | undefined {
  if (!o.workerScript || o.toDocument !== NOTE_MAPPER || o.embedder || root === undefined) return undefined;
  return ReadPool.start(
    o.workerScript,
    { root, layout, limits },
    o.workers ?? defaultWorkerCount(),
    o.workers ?? maxWorkerCount(),
  );
}

export function defaultWorkerCount(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

/** Workers a build may grow to once the vault proves large (see GROW_AFTER): one per core, at most 4. */
export function maxWorkerCount(cores: number = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores));
}

/**
 * Files the walk must have found before one more worker starts: each worker's start-up and warm-up
 * (loading the modules, compiling the reading code, learning the vocabulary) is ≈ 0.3–0.4 s of CPU,
 * worth paying only when there is enough left to read.
 */
const GROW_AFTER = 20_000;

/**
 * A pool of read workers (`read-worker.js`) for a cold build over a filesystem store: keys from the
 * walk's feed go out in batches, prepared batches come back and are applied on this thread in the
 * order they arrive. Created only where the worker script exists (the built package; not bundles
 * or TypeScript sources, which build on the main thread).
 */
export class ReadPool {
  readonly #workers: Worker[];
  readonly #script: string;
  readonly #data: ReadWorkerData;
  #max: number;

  private constructor(workers: Worker[], script: string, data: ReadWorkerData, max: number) {
    this.#workers = workers;
    this.#script = script;
    this.#data = data;
    this.#max = max;
  }

  /**
   * Starts `size` workers on `script`, allowed to grow to `max` on a large vault; undefined when it
   * cannot (no script file, no worker support).
   */
  static start(script: string | undefined, data: ReadWorkerData, size: number, max = size): ReadPool | undefined {
    if (!script || size <= 0 || !existsSync(script)) return undefined;
    const workers: Worker[] = [];
    try {
      for (let i = 0; i < size; i++) workers.push(ReadPool.#spawn(script, data));
    } catch {
      for (const w of workers) void w.terminate();
      return undefined;
    }
    return new ReadPool(workers, script, data, Math.max(size, max));
  }

  static #spawn(script: string, data: ReadWorkerData): Worker {
    const worker = new Worker(script, { workerData: data });
    worker.unref();
    return worker;
  }

  /**
   * Feeds every key of `feed` to the workers and calls `apply` with each prepared batch (`worker` is
   * the index of the worker that prepared it). Rejects when a worker fails (an unreadable file, a
   * crash): the caller keeps its previous index.
   *
   * (This thread does not read batches itself while the workers are busy: measured on 2 cores, that
   * cost a fifth more CPU — one more isolate compiling and warming the reading code — for no gain.)
   */
  run(
    feed: KeyFeed,
    infos: ReadonlyMap<string, Info>,
    apply: (batch: PreparedBatch, worker: number) => void,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let nextId = 0;
      let inFlight = 0;
      let drained = false;
      let failed = false;
      let pulling = false;
      const idle: Worker[] = [];
      const fail = (error: Error) => {
        if (failed) return;
        failed = true;
        cleanup();
        reject(error);
      };
      const take = async (size: number): Promise<ReadRequest['items']> => {
        const items: { key: string; mtimeMs: number; size: number }[] = [];
        while (items.length < size) {
          const key = await feed.next();
          if (key === undefined) {
            drained = true;
            break;
          }
          const info = infos.get(key);
          items.push({ key, mtimeMs: info?.mtimeMs ?? 0, size: info?.size ?? 0 });
        }
        return items;
      };
      const pump = async () => {
        if (pulling || failed) return;
        pulling = true;
        try {
          // A large vault: one more worker, once (they start in a few tens of milliseconds).
          if (this.#workers.length < this.#max && feed.total >= GROW_AFTER * this.#workers.length) {
            try {
              const worker = ReadPool.#spawn(this.#script, this.#data);
              this.#workers.push(worker);
              attach(worker, this.#workers.length - 1);
            } catch {
              this.#max = this.#workers.length; // no more workers here: carry on with these
            }
          }
          while (!failed && !drained && idle.length > 0) {
            const worker = idle.shift()!;
            const items = await take(BATCH);
            if (items.length === 0) {
              idle.push(worker);
              break;
            }
            inFlight++;
            worker.postMessage({ id: nextId++, items } satisfies ReadRequest);
          }
        } catch (error) {
          fail(error as Error);
        } finally {
          pulling = false;
        }
        settle();
      };
      const settle = () => {
        if (drained && inFlight === 0 && !pulling && !failed) {
          cleanup();
          resolve();
        }
      };
      const onMessage = (worker: Worker, index: number) => (message: WorkerAnswer) => {
        if (failed) return;
        inFlight--;
        if (message.error !== undefined || !message.batch)
          return fail(new Error(`a read worker failed: ${message.error ?? 'no batch'}`));
        try {
          apply(message.batch, index);
        } catch (error) {
          return fail(error as Error);
        }
        idle.push(worker);
        void pump();
      };
      const listeners: Attached[] = [];
      const attach = (worker: Worker, index: number) => {
        const message = onMessage(worker, index);
        const error = (e: Error) => fail(new Error(`a read worker crashed: ${e.message}`));
        const exit = (code: number) => fail(new Error(`a read worker exited (code ${code})`));
        worker.on('message', message).on('error', error).on('exit', exit);
        for (let i = 0; i < IN_FLIGHT; i++) idle.push(worker);
        listeners.push({ worker, message, error, exit });
      };
      this.#workers.forEach(attach);
      const cleanup = () => {
        for (const l of listeners) l.worker.off('message', l.message).off('error', l.error).off('exit', l.exit);
      };
      void pump();
    });
  }

  /** Number of workers. */
  get size(): number {
    return this.#workers.length;
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await Promise.all(this.#workers.map((w) => w.terminate()));
  }
}

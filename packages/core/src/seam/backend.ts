import type { Capabilities } from './capabilities.js';
import type { ChangeFeed } from './change-feed.js';
import type { Info } from './info.js';
import { Locator } from './locator.js';
import type { StepLeases } from './step-leases.js';
import type { Tier } from './tiers.js';

/** Options of the `write` verb. */
export interface WriteOptions {
  /**
   * Compare-and-swap expectation. A hash (from `contentHash` of what the caller read): the write lands
   * only if the target still hashes to it. `null`: the write lands only if the target is still absent.
   * Omitted: no caller expectation (the backend still guards its own read-to-rename window).
   */
  readonly expectHash?: string | null;
}

/** Options of the optional `remove` verb. */
export interface RemoveOptions {
  /** The hash the caller read: the file is removed only if it still hashes to it. Omitted: no expectation. */
  readonly expectHash?: string;
}

/** Construction options a registry-built backend accepts. Each backend documents the keys it reads. */
export interface BackendOptions {
  readonly root?: string;
  readonly lockRoot?: string;
  readonly [key: string]: unknown;
}

/**
 * The storage seam: seven verbs over opaque Locators. Nothing above the backends holds a path into
 * the store; swapping the backend is invisible to the engine.
 *
 * Contract (checked by `runConformance`): `read`/`info` of an absent locator throw `NotFoundError`;
 * `list` of an absent locator or of a file is `[]`; `mkdir` is idempotent; text round-trips byte for
 * byte (CRLF, lone CR, non-ASCII); an invalid key throws `InvalidLocatorError`.
 */
export abstract class StorageBackend {
  /** What this backend promises. */
  abstract readonly capabilities: Capabilities;

  /** How the backend resolves concurrent edits it cannot prevent (a name, e.g. `whole-file`). */
  get conflictStrategy(): string {
    return 'none';
  }

  /**
   * The directory on this machine that holds the store, when the backend keeps every locator as a file
   * under one local directory (`join(localRoot, ...locator.parts)`): the vault and device-local backends,
   * Obsidian's in-vault backend. `undefined` for stores without one (in memory, remote).
   *
   * What it is for: keying device-local derived state by the store (the memory index directory, the
   * vault lock), showing people where a file is, and letting the index's read workers read files
   * directly. What it is not for: writing. Every write goes through the backend's verbs, which take the
   * lock and compare hashes; a caller that writes below this path bypasses the write protocol.
   */
  get localRoot(): string | undefined {
    return undefined;
  }

  /**
   * The change log this backend appends to (see protocol/change-log.ts): after each write or removal
   * lands, its key is recorded there, so that a derived index of the store catches up with every AgentM
   * writer's changes without walking the store. `undefined`: the backend records none (an index then
   * walks to find changes). Backends of one store on one machine must name the same file.
   */
  get changeLogPath(): string | undefined {
    return undefined;
  }

  /**
   * A stable name of the store with no secret in it: what device-local derived state (the memory index)
   * is keyed by and what people are shown where a path would be. The local root for directory stores;
   * a URL without a password for a remote one (`postgres://agentm@db:5432/team?schema=agentm`).
   */
  get storeId(): string | undefined {
    return this.localRoot;
  }

  /**
   * The store's own change feed (`ChangeFeed`), for stores that can tell what changed since a cursor
   * and notify listeners (a database). `undefined` for directory stores, which are walked and watched.
   */
  get changeFeed(): ChangeFeed | undefined {
    return undefined;
  }

  /**
   * Step leases (`StepLeases`), for stores shared by several machines: the harness then claims steps
   * with expiring, renewed leases instead of judging a claimant by its process. `undefined`: claims are
   * judged by the claimant's process (one machine's view), as for the vault.
   */
  get stepLeases(): StepLeases | undefined {
    return undefined;
  }

  /** The derived-tier maintenance this backend offers, if any. */
  get derivedMaintenance(): DerivedMaintenanceLike | undefined {
    return undefined;
  }

  /** A backend-relative locator from path parts; no parts is the root. Synchronous and pure. */
  resolve(...parts: string[]): Locator {
    return Locator.root.child(...parts);
  }

  /** The text stored at `locator`. Throws `NotFoundError` when absent. */
  abstract read(locator: Locator): Promise<string>;

  /** Durably and atomically stores `content`, creating parents; returns the locator written. */
  abstract write(locator: Locator, content: string, options?: WriteOptions): Promise<Locator>;

  /** Immediate children, sorted by key. `[]` for an absent locator, a file or an empty directory. */
  abstract list(locator: Locator): Promise<Locator[]>;

  /** Whether a file or directory is present. */
  abstract exists(locator: Locator): Promise<boolean>;

  /** Metadata. Throws `NotFoundError` when absent. */
  abstract info(locator: Locator): Promise<Info>;

  /** Ensures a directory (and its ancestors) exists; idempotent. */
  abstract mkdir(locator: Locator): Promise<Locator>;

  /**
   * The `info` of each locator, in order, `undefined` for one that is absent — optional: a store that
   * can tell many at once cheaper than one by one (a directory store's walk of 100 000 notes) implements
   * it; a caller without it calls `info` for each.
   */
  infoMany?(locators: readonly Locator[]): Promise<Array<Info | undefined>>;

  /**
   * Removes a file — an optional verb, beside the seven: a store that can remove implements it, and a
   * caller tests for it before relying on it (evolve's rename, the doctor's probe note). With
   * `expectHash`, the file is removed only if it still hashes to it, else `ConcurrentModificationError`
   * and the file stays. An absent file is `NotFoundError`. Directories are never removed.
   */
  remove?(locator: Locator, options?: RemoveOptions): Promise<void>;

  /**
   * Releases what the backend holds open (a remote store's connections and listeners) — optional. A
   * backend may be used again after it: it reopens what it needs.
   */
  close?(): Promise<void>;
}

/** Structural view of DerivedMaintenance, so backends need not import the tiers module's class. */
export interface DerivedMaintenanceLike {
  reindex(tier: Tier): Promise<void>;
  changedSince(mtimeMs: number): Promise<Locator[]>;
}

/**
 * A backend class as a registry holds it. `declaredCapabilities`, when a class has it, says what every
 * instance offers before one is constructed, so selection can refuse a mismatch without creating a root.
 * `describeStore`, when it has it, names the store its options select (its `storeId`) without
 * constructing or connecting, and throws the backend's own error for options it would refuse — what the
 * doctor's preview shows.
 */
export type BackendClass = (new (options?: BackendOptions) => StorageBackend) & {
  readonly declaredCapabilities?: Capabilities;
  readonly describeStore?: (options: BackendOptions) => string;
};

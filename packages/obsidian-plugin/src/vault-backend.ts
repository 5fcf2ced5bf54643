import type { App } from 'obsidian';
import { isAbsolute, relative, sep } from 'node:path';
import { BackendConfigError, reportSkippedEntry } from '@agentm/core/backends';
import {
  capabilities,
  InvalidLocatorError,
  Locator,
  NotFoundError,
  StorageBackend,
  type BackendClass,
  type BackendOptions,
  type Info,
  type WriteOptions,
} from '@agentm/core';
import { isTempName, type LockHold } from '@agentm/core/write-protocol';
import { diskPath, fileSystemAdapter } from './disk.js';
import { defaultHost, type PluginHost } from './host.js';
import { AgentWriter } from './write/agent-writer.js';
import { LockGate, type LockWaitListener } from './write/lock-gate.js';
import { adapterFolder, joinVaultPath } from './vault-paths.js';

export interface VaultBackendDefaults {
  /** The memory root as a vault-relative folder (`""` = the vault root). */
  readonly folder?: string;
  readonly host?: PluginHost;
  readonly lockTimeoutMs?: number;
  readonly onLockWait?: LockWaitListener;
  readonly lockRoot?: string;
}

export interface ObsidianVaultBackendOptions extends VaultBackendDefaults {
  /** The Obsidian app whose vault holds the store. Required. */
  readonly app?: App;
}

/**
 * The store seen from inside Obsidian: the memory root folder of this vault, through the Vault and
 * DataAdapter API. Reads, listings, existence and metadata go to the adapter (the disk, which is what
 * agents see: the Vault's index lags the file watcher and hides dot paths). Writes go through
 * `AgentWriter`: the agentm lock of the memory root (the same directory every agent takes), the content-
 * hash CAS, `Vault.process` for files open in an editor and an atomic temp + rename otherwise.
 */
export class ObsidianVaultBackend extends StorageBackend {
  readonly capabilities = capabilities({ concurrentWriters: true, conflictFiles: true, sync: true });
  /** The memory root, vault-relative. */
  readonly folder: string;
  /** The memory root on disk (the lock key). */
  readonly root: string;
  readonly writer: AgentWriter;
  readonly #app: App;

  constructor(options: ObsidianVaultBackendOptions = {}) {
    super();
    const app = options.app;
    if (!app)
      throw new BackendConfigError(
        "the in-vault 'vault' backend runs inside Obsidian and needs the app; outside Obsidian use core's VaultBackend",
      );
    this.#app = app;
    this.folder = options.folder === undefined ? '' : new Locator(options.folder).key;
    this.root = diskPath(app, this.folder);
    const host = options.host ?? defaultHost();
    const timeoutMs = options.lockTimeoutMs ?? 10_000;
    const gate = new LockGate(this.root, options.lockRoot ?? host.lockRoot, () => timeoutMs, options.onLockWait);
    this.writer = new AgentWriter(app, gate, host);
  }

  /** The memory root folder on disk (see `StorageBackend.localRoot`). */
  override get localRoot(): string {
    return this.root;
  }

  override get conflictStrategy(): string {
    return 'whole-file';
  }

  /** This memory root's lock directory. */
  get lockDir(): string {
    return this.writer.lock.lockDir;
  }

  /** Runs `fn` under the lock (re-entrant), for multi-file operations that must be atomic together. */
  withLock<T>(fn: (hold: LockHold) => Promise<T>): Promise<T> {
    return this.writer.lock.run(fn);
  }

  /** The vault-relative path of a locator. */
  pathOf(locator: Locator): string {
    return joinVaultPath(this.folder, locator.key);
  }

  async read(locator: Locator): Promise<string> {
    const path = this.pathOf(locator);
    const stat = await this.#adapter.stat(adapterFolder(path));
    if (!stat) throw new NotFoundError(locator.key);
    if (stat.type === 'folder') throw new NotFoundError(locator.key, 'it is a directory, not a file');
    return this.#adapter.read(path);
  }

  async write(locator: Locator, content: string, options: WriteOptions = {}): Promise<Locator> {
    if (typeof content !== 'string')
      throw new TypeError(`write(${JSON.stringify(locator.key)}) takes text; got ${typeof content}`);
    await this.writer.casWrite(this.pathOf(locator), content, options.expectHash);
    return locator;
  }

  async list(locator: Locator): Promise<Locator[]> {
    const path = adapterFolder(this.pathOf(locator));
    if ((await this.#adapter.stat(path))?.type !== 'folder') return [];
    const listed = await this.#adapter.list(path);
    const children: Locator[] = [];
    for (const child of [...listed.files, ...listed.folders]) {
      const name = child.slice(child.lastIndexOf('/') + 1);
      if (isTempName(name)) continue;
      try {
        children.push(locator.child(name));
      } catch (error) {
        // A name the seam cannot express (a backslash) is skipped with a warning, never fatal to a walk.
        if (!(error instanceof InvalidLocatorError)) throw error;
        reportSkippedEntry(child, 'its name cannot be a storage key (a backslash or NUL); it is not read');
      }
    }
    return children.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async exists(locator: Locator): Promise<boolean> {
    return (await this.#adapter.stat(adapterFolder(this.pathOf(locator)))) !== null;
  }

  async info(locator: Locator): Promise<Info> {
    const stat = await this.#adapter.stat(adapterFolder(this.pathOf(locator)));
    if (!stat) throw new NotFoundError(locator.key);
    const isDir = stat.type === 'folder';
    return Object.freeze({ locator, isDir, size: isDir ? 0 : stat.size, mtimeMs: stat.mtime });
  }

  async mkdir(locator: Locator): Promise<Locator> {
    const path = adapterFolder(this.pathOf(locator));
    const stat = await this.#adapter.stat(path);
    if (stat?.type === 'file') throw new NotFoundError(locator.key, 'a file is in the way of the directory');
    if (!stat) await this.#adapter.mkdir(path);
    return locator;
  }

  get #adapter() {
    return this.#app.vault.adapter;
  }
}

/**
 * The class registered as `vault` inside Obsidian: a registry builds it with `{ root }` (the absolute
 * memory root agentm's config names); this binds the app and maps that root to a folder of this vault.
 * A root outside the vault is a configuration error, named, never a silent fall-back.
 */
export function bindVaultBackend(app: App, defaults: VaultBackendDefaults): BackendClass {
  return class BoundObsidianVaultBackend extends ObsidianVaultBackend {
    constructor(options: BackendOptions = {}) {
      const lockRoot = typeof options.lockRoot === 'string' ? options.lockRoot : defaults.lockRoot;
      super({
        ...defaults,
        ...(lockRoot !== undefined ? { lockRoot } : {}),
        app,
        folder: folderFor(app, options.root, defaults.folder),
      });
    }
  };
}

function folderFor(app: App, root: unknown, fallback: string | undefined): string {
  if (typeof root !== 'string' || root.trim() === '') return fallback ?? '';
  if (!isAbsolute(root)) return new Locator(root).key;
  const base = fileSystemAdapter(app).getBasePath();
  const rel = relative(base, root);
  if (rel === '') return '';
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new BackendConfigError(
      `the memory root ${root} is outside the vault open in Obsidian (${base}); open the vault that holds it, or set AgentM's memory root to a folder of this vault`,
    );
  }
  return rel.split(sep).join('/');
}

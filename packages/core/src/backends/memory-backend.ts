import {
  StorageBackend,
  type BackendOptions,
  type DerivedMaintenanceLike,
  type WriteOptions,
} from '../seam/backend.js';
import { capabilities, type Capabilities } from '../seam/capabilities.js';
import { NotFoundError } from '../seam/errors.js';
import type { Info } from '../seam/info.js';
import { Locator } from '../seam/locator.js';
import type { Tier, TierLayout } from '../seam/tiers.js';
import { contentHash } from '../write-protocol/content-hash.js';
import { checkExpectation } from '../write-protocol/cas-write.js';

interface Entry {
  readonly dir: boolean;
  readonly content: string;
  readonly mtimeMs: number;
}

export interface MemoryBackendOptions extends BackendOptions {
  readonly capabilities?: Partial<Capabilities>;
  /** When given, the backend offers derived maintenance that mirrors SOURCE into LOCAL_INDEX. */
  readonly derivedLayout?: TierLayout;
}

/**
 * An in-memory backend: a test double that honours the whole seam contract (it runs the same
 * conformance suite as the real backends), for tests of the layers above the seam.
 */
export class MemoryBackend extends StorageBackend {
  readonly capabilities: Capabilities;
  readonly #entries = new Map<string, Entry>([['', { dir: true, content: '', mtimeMs: Date.now() }]]);
  readonly #derived: DerivedMaintenanceLike | undefined;

  constructor(options: MemoryBackendOptions = {}) {
    super();
    this.capabilities = capabilities(options.capabilities);
    const layout = options.derivedLayout;
    this.#derived = layout ? new MirrorMaintenance(this, layout) : undefined;
  }

  override get derivedMaintenance(): DerivedMaintenanceLike | undefined {
    return this.#derived;
  }

  async read(locator: Locator): Promise<string> {
    const entry = this.#entries.get(locator.key);
    if (!entry) throw new NotFoundError(locator.key);
    if (entry.dir) throw new NotFoundError(locator.key, 'it is a directory, not a file');
    return entry.content;
  }

  async write(locator: Locator, content: string, options: WriteOptions = {}): Promise<Locator> {
    const existing = this.#entries.get(locator.key);
    if (existing?.dir) throw new NotFoundError(locator.key, 'it is a directory, not a file');
    await this.mkdir(locator.parent);
    // Check and store with no await between them: a CAS must not let two writers both pass the check.
    const current = this.#entries.get(locator.key);
    checkExpectation(locator.key, options.expectHash, current && !current.dir ? contentHash(current.content) : null);
    this.#entries.set(locator.key, { dir: false, content, mtimeMs: Date.now() });
    return locator;
  }

  /** The seam's optional `remove`: only if it still hashes to `expectHash` when given. */
  override async remove(locator: Locator, options: { readonly expectHash?: string } = {}): Promise<void> {
    const existing = this.#entries.get(locator.key);
    if (!existing) throw new NotFoundError(locator.key);
    if (existing.dir) throw new NotFoundError(locator.key, 'it is a directory; only files are removed');
    if (options.expectHash !== undefined)
      checkExpectation(locator.key, options.expectHash, contentHash(existing.content));
    this.#entries.delete(locator.key);
  }

  async list(locator: Locator): Promise<Locator[]> {
    if (!this.#entries.get(locator.key)?.dir) return [];
    const prefix = locator.isRoot ? '' : `${locator.key}/`;
    return [...this.#entries.keys()]
      .filter((key) => key !== '' && key.startsWith(prefix) && !key.slice(prefix.length).includes('/'))
      .sort()
      .map((key) => new Locator(key));
  }

  async exists(locator: Locator): Promise<boolean> {
    return this.#entries.has(locator.key);
  }

  async info(locator: Locator): Promise<Info> {
    const entry = this.#entries.get(locator.key);
    if (!entry) throw new NotFoundError(locator.key);
    return Object.freeze({
      locator,
      isDir: entry.dir,
      size: entry.dir ? 0 : Buffer.byteLength(entry.content, 'utf8'),
      mtimeMs: entry.mtimeMs,
    });
  }

  async mkdir(locator: Locator): Promise<Locator> {
    for (let i = 0; i <= locator.parts.length; i++) {
      const key = locator.parts.slice(0, i).join('/');
      const entry = this.#entries.get(key);
      if (entry && !entry.dir) throw new NotFoundError(key, 'a file is in the way of the directory');
      if (!entry) this.#entries.set(key, { dir: true, content: '', mtimeMs: Date.now() });
    }
    return locator;
  }
}

/** Derived maintenance of the double: LOCAL_INDEX is a byte copy of SOURCE. */
class MirrorMaintenance implements DerivedMaintenanceLike {
  constructor(
    private readonly backend: MemoryBackend,
    private readonly layout: TierLayout,
  ) {}

  async reindex(tier: Tier): Promise<void> {
    const target = this.layout.rootFor(tier);
    for (const source of await this.sourceFiles(this.layout.source)) {
      const relative = source.key.slice(this.layout.source.key.length).replace(/^\//, '');
      await this.backend.write(target.child(relative), await this.backend.read(source));
    }
  }

  async changedSince(mtimeMs: number): Promise<Locator[]> {
    const changed: Locator[] = [];
    for (const source of await this.sourceFiles(this.layout.source)) {
      if ((await this.backend.info(source)).mtimeMs > mtimeMs) changed.push(source);
    }
    return changed;
  }

  private async sourceFiles(dir: Locator): Promise<Locator[]> {
    const files: Locator[] = [];
    for (const child of await this.backend.list(dir)) {
      if ((await this.backend.info(child)).isDir) files.push(...(await this.sourceFiles(child)));
      else files.push(child);
    }
    return files;
  }
}

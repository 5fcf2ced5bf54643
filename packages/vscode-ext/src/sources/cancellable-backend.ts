import * as vscode from 'vscode';
import { StorageBackend, type Capabilities, type Info, type Locator, type WriteOptions } from '@agentm/core';

/**
 * A backend that refuses every further call once `token` is cancelled (throwing `vscode.CancellationError`),
 * so long work over the seam — a rebuild's walk, a consolidation — stops at its next read or write. What
 * core does on such a failure is already safe: a rebuild persists nothing, a consolidation keeps its
 * watermark and redoes the rest next time.
 */
export class CancellableBackend extends StorageBackend {
  constructor(
    private readonly inner: StorageBackend,
    private readonly token: vscode.CancellationToken,
  ) {
    super();
  }

  /** The inner store's root on disk (the memory index names its directory after it). */
  override get localRoot(): string | undefined {
    return this.inner.localRoot;
  }

  get capabilities(): Capabilities {
    return this.inner.capabilities;
  }

  override get conflictStrategy(): string {
    return this.inner.conflictStrategy;
  }

  override resolve(...parts: string[]): Locator {
    return this.inner.resolve(...parts);
  }

  #check(): void {
    if (this.token.isCancellationRequested) throw new vscode.CancellationError();
  }

  async read(locator: Locator): Promise<string> {
    this.#check();
    return this.inner.read(locator);
  }

  async write(locator: Locator, content: string, options?: WriteOptions): Promise<Locator> {
    this.#check();
    return this.inner.write(locator, content, options);
  }

  async list(locator: Locator): Promise<Locator[]> {
    this.#check();
    return this.inner.list(locator);
  }

  async exists(locator: Locator): Promise<boolean> {
    this.#check();
    return this.inner.exists(locator);
  }

  async info(locator: Locator): Promise<Info> {
    this.#check();
    return this.inner.info(locator);
  }

  async mkdir(locator: Locator): Promise<Locator> {
    this.#check();
    return this.inner.mkdir(locator);
  }
}

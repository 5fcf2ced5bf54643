import { TFolder, type TAbstractFile } from 'obsidian';
import { classifySource, defaultIndexRoot, indexDirFor, MemoryIndex, noteToDocument, recall } from '@agentm/core';
import type { RecallHit } from '../services.js';
import type { ObsidianVaultBackend } from '../vault-backend.js';
import type { ServiceDeps } from './deps.js';
import { relativeToRoot } from './project.js';

/** Results a recall asks for. */
export const RECALL_RESULTS = 20;

/**
 * Recall over core's memory engine, opened lazily: nothing happens until the first query, which opens
 * the device-local index of the memory root (in the user cache dir, the one agents share; never in the
 * vault) and brings it up to date. From then on the vault's events say which notes changed, and each
 * query first re-reads just those (`MemoryIndex.update`); a folder change walks again (`refresh`). A
 * new memory root (settings) starts over with that root's index.
 */
export class RecallIndex {
  #backend: ObsidianVaultBackend | undefined;
  #index: Promise<MemoryIndex> | undefined;
  #pending = new Set<string>();
  #walk = false;
  #listening = false;

  constructor(private readonly deps: ServiceDeps) {}

  /** Recall for `text`, scoped to `project` (its notes plus global ones) when given. */
  async search(text: string, project: string | undefined): Promise<RecallHit[]> {
    const index = await this.#current();
    const backend = index.backend as ObsidianVaultBackend;
    const result = await recall(index, { text, project, k: RECALL_RESULTS });
    return result.items.map((item) => ({
      path: backend.pathOf(backend.resolve(item.locator)),
      title: item.title,
      snippet: item.snippet,
      kind: item.kind,
      score: item.score,
    }));
  }

  /** A vault file changed (the plugin saved it, or the vault reported it): re-read before the next query. */
  changed(path: string, isFolder = false): void {
    const backend = this.#backend;
    if (!this.#index || !backend) return; // not open yet: the first query walks everything
    const rel = relativeToRoot(path, backend.folder);
    if (isFolder) {
      const holdsRoot = path === backend.folder || backend.folder.startsWith(`${path}/`);
      if (rel !== undefined || holdsRoot) this.#walk = true;
    } else if (rel !== undefined && classifySource(rel).role !== 'ignored') {
      this.#pending.add(rel);
    }
  }

  /** Whether the index has been opened (for tests and the doctor). */
  get opened(): boolean {
    return this.#index !== undefined;
  }

  async #current(): Promise<MemoryIndex> {
    const { backend } = this.deps.context();
    if (backend !== this.#backend) {
      this.#backend = backend;
      this.#index = undefined;
      this.#pending.clear();
      this.#walk = false;
    }
    this.#listen();
    if (!this.#index) {
      const opening = this.#open(backend);
      this.#index = opening;
      opening.catch(() => {
        if (this.#index === opening) this.#index = undefined;
      });
    }
    const index = await this.#index;
    await this.#catchUp(index);
    return index;
  }

  async #open(backend: ObsidianVaultBackend): Promise<MemoryIndex> {
    const host = this.deps.host();
    const indexRoot = defaultIndexRoot(host.hostEnv.env as NodeJS.ProcessEnv, host.hostEnv.home);
    const index = await MemoryIndex.open({
      backend,
      toDocument: noteToDocument,
      indexDir: indexDirFor(backend.root, indexRoot),
      lockRoot: host.lockRoot,
    });
    await index.refresh();
    return index;
  }

  async #catchUp(index: MemoryIndex): Promise<void> {
    if (this.#walk) {
      this.#walk = false;
      this.#pending.clear();
      await index.refresh();
      return;
    }
    if (this.#pending.size === 0) return;
    const keys = [...this.#pending];
    this.#pending.clear();
    try {
      await index.update(keys.map((key) => index.backend.resolve(key)));
    } catch (error) {
      this.#walk = true; // try again from a walk next time
      throw error;
    }
  }

  /** Vault events, registered on first use for the plugin's lifetime. */
  #listen(): void {
    if (this.#listening) return;
    this.#listening = true;
    const { app, owner } = this.deps;
    const seen = (file: TAbstractFile) => this.changed(file.path, file instanceof TFolder);
    owner.registerEvent(app.vault.on('create', seen));
    owner.registerEvent(app.vault.on('modify', seen));
    owner.registerEvent(app.vault.on('delete', seen));
    owner.registerEvent(
      app.vault.on('rename', (file, oldPath) => {
        this.changed(oldPath, file instanceof TFolder);
        seen(file);
      }),
    );
  }
}

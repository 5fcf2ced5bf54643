import { TFolder, type TAbstractFile } from 'obsidian';
import { classifySource, type MemoryIndex, type MemoryLayout } from '@agentm/core/memory';
import { type Workspace } from '@agentm/core';
import type { RecallHit } from '../services.js';
import type { ObsidianVaultBackend } from '../vault-backend.js';
import type { ServiceDeps } from './deps.js';
import { relativeToRoot } from './project.js';
import type { WorkspaceCache } from './workspaces.js';

/** Results a recall asks for. */
export const RECALL_RESULTS = 20;

/** The workspace whose index is open, and what the vault's events are measured against. */
interface Opened {
  readonly ws: Workspace;
  readonly backend: ObsidianVaultBackend;
  readonly layout: MemoryLayout;
  readonly index: Promise<MemoryIndex>;
}

/**
 * Recall through the memory root's workspace, opened lazily: nothing happens until the first query,
 * which opens the workspace's index (device-local, in the user cache dir agents share; never in the
 * vault) with the configured layout and embedder, and brings it up to date. From then on the vault's
 * events say which notes changed, and each query first re-reads just those (`MemoryIndex.update`); a
 * folder change walks again (`refresh`). A new workspace (another memory root, a changed agentm config)
 * starts over with its own index. Queries are embedded when `providers.embeddings.*` is configured; an
 * endpoint that fails degrades to lexical recall.
 */
export class RecallIndex {
  #opened: Opened | undefined;
  #pending = new Set<string>();
  #walk = false;
  #listening = false;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly workspaces: WorkspaceCache,
  ) {}

  /** Recall for `text`, scoped to `project` (its notes plus global ones) when given. */
  async search(text: string, project: string | undefined): Promise<RecallHit[]> {
    const { ws, backend } = await this.#current();
    // A provider that fails degrades to lexical recall inside `recall` (its warning is not a user's concern here).
    const result = await ws.recall({ text, project, k: RECALL_RESULTS }, { refresh: false });
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
    const opened = this.#opened;
    if (!opened) return; // not open yet: the first query walks everything
    const { folder } = opened.backend;
    const rel = relativeToRoot(path, folder);
    if (isFolder) {
      const holdsRoot = path === folder || folder.startsWith(`${path}/`);
      if (rel !== undefined || holdsRoot) this.#walk = true;
    } else if (rel !== undefined && classifySource(rel, opened.layout).role !== 'ignored') {
      this.#pending.add(rel);
    }
  }

  /** Whether the index has been opened (for tests and the doctor). */
  get opened(): boolean {
    return this.#opened !== undefined;
  }

  async #current(): Promise<{ ws: Workspace; backend: ObsidianVaultBackend; index: MemoryIndex }> {
    const ws = await this.workspaces.current();
    this.#listen();
    if (this.#opened?.ws !== ws) {
      this.#pending.clear();
      this.#walk = false;
      const index = ws.index().then(async (opened) => (await opened.refresh(), opened));
      const entry: Opened = { ws, backend: this.deps.context().backend, layout: ws.layout, index };
      this.#opened = entry;
      index.catch(() => {
        if (this.#opened === entry) this.#opened = undefined;
      });
    }
    const { backend, index } = this.#opened;
    const open = await index;
    await this.#catchUp(open);
    return { ws, backend, index: open };
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

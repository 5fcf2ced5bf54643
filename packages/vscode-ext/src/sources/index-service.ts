import { stat } from 'node:fs/promises';
import { relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { Locator, StorageBackend, Workspace } from '@agentm/core';
import type { MemoryIndex } from '@agentm/core/memory';
import { MARK_INDEX_OPEN, MARK_INDEX_READY, mark } from '../perf';
import type { ProjectTracker } from './project-tracker';

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** What the inspect command reports about the index. */
export interface IndexStatus {
  readonly state: 'closed' | 'opening' | 'ready' | 'failed';
  readonly dir: string | undefined;
  readonly documents: number;
  readonly memoryRoot: string | undefined;
}

interface Opened {
  /** The workspace whose index this is: a rebuilt workspace (new config, settings, project) opens its own. */
  readonly workspace: Workspace;
  readonly root: string;
  readonly index: Promise<MemoryIndex>;
}

/**
 * The workspace's memory index (core opens it in the extension's global storage, the LOCAL_INDEX tier,
 * never in the vault, with the configured layout and embedder). Opened on first use — the Recall view
 * asks once it is visible, never activate() — then brought up to date with `refresh()` (a cold build the
 * first time). Afterwards the tracker's watcher events update it incrementally (`update(locators)`); a
 * rebuilt workspace (another memory root, config or settings) opens its own.
 */
export class IndexService implements vscode.Disposable {
  #opened: Opened | undefined;
  #status: IndexStatus = { state: 'closed', dir: undefined, documents: 0, memoryRoot: undefined };
  #updates: Promise<unknown> = Promise.resolve();
  readonly #changed = new vscode.EventEmitter<void>();
  /** The index changed (opened, updated from disk, rebuilt). */
  readonly onDidChange = this.#changed.event;
  readonly #subscriptions: vscode.Disposable[];

  constructor(
    private readonly tracker: ProjectTracker,
    /** Background trouble of the index; `undefined` clears it. */
    private readonly onBackgroundError: (error: unknown) => void = () => undefined,
  ) {
    this.#subscriptions = [
      tracker.onDidChangeMemory((uris) => this.#onFiles(uris)),
      tracker.onDidChangeStoreKeys((keys) => this.#onKeys(keys)),
      tracker.onDidChangeWorkspace(() => void this.#dropIfMoved()),
    ];
  }

  get status(): IndexStatus {
    return this.#status;
  }

  /** The up-to-date index of the current workspace (opening it on first use). */
  async index(): Promise<MemoryIndex> {
    const ws = await this.tracker.current();
    // A store without a folder on disk (a database) is indexed too, keyed by its id (a URL, no secret).
    const root = ws.memoryRoot ?? ws.workspace.backend.storeId;
    if (!root) throw new Error(`the ${ws.workspace.protocol} backend has no folder on disk to index`);
    if (this.#opened?.workspace !== ws.workspace) {
      const opening = this.#open(ws.workspace, root);
      this.#opened = { workspace: ws.workspace, root, index: opening };
      opening.catch(() => {
        if (this.#opened?.index === opening) this.#opened = undefined;
      });
    }
    return this.#opened.index;
  }

  /**
   * The index caught up for an answer someone waits on (a model's tool call, a search): what the store's
   * change log and the folders whose mtime moved say changed since its marks (core's `refreshChanges`,
   * the catch-up every short-lived answer makes). So the bound the CLI and the hooks keep holds here
   * too: a note another program created, deleted or renamed is in (or out of) the next answer, without
   * waiting for the watcher (~150 ms) or for a build that listed its folder before it was written.
   */
  async current(): Promise<MemoryIndex> {
    const index = await this.index();
    const opened = this.#opened;
    const report = await this.#enqueue(() => index.refreshChanges());
    if (report.indexed + report.removed > 0 && opened !== undefined && this.#opened === opened)
      this.#ready(index, opened.root);
    return index;
  }

  /** Opens another handle on the index directory (e.g. over a cancellable backend); the main one catches up with `sync()`. */
  async openSibling(backend: StorageBackend): Promise<MemoryIndex> {
    return (await this.tracker.current()).workspace.openIndex({ backend });
  }

  /** After another writer changed the index directory (a rebuild): reload and tell the views. */
  async sync(): Promise<void> {
    const opened = this.#opened;
    if (!opened) return;
    const index = await opened.index;
    await index.sync();
    this.#ready(index, opened.root);
  }

  /** Re-reads these notes now (a save knows what it wrote; the watcher would follow ~150 ms later). */
  async noteWritten(locators: readonly Locator[]): Promise<void> {
    if (!this.#opened) return;
    const index = await this.#opened.index;
    await this.#enqueue(() => index.update(locators));
    this.#ready(index, this.#opened.root);
  }

  async #open(workspace: Workspace, root: string): Promise<MemoryIndex> {
    mark(MARK_INDEX_OPEN);
    this.#status = { state: 'opening', dir: undefined, documents: 0, memoryRoot: root };
    try {
      const index = await workspace.index();
      await this.#enqueue(() => index.refresh());
      mark(MARK_INDEX_READY);
      this.#ready(index, root);
      return index;
    } catch (error) {
      this.#status = { state: 'failed', dir: undefined, documents: 0, memoryRoot: root };
      throw error;
    }
  }

  #ready(index: MemoryIndex, root: string): void {
    this.#status = { state: 'ready', dir: index.dir, documents: index.state.docs.size, memoryRoot: root };
    this.onBackgroundError(undefined); // an earlier failed update is behind us: the index is current again
    this.#changed.fire();
    this.#embed(index);
  }

  /**
   * The vectors of what changed, when an embeddings endpoint is set: computed in the background (core
   * embeds only notes whose text changed, one run at a time per index), with progress in the status bar;
   * the views pick them up when it ends. A failing endpoint is told once, by the next recall.
   */
  #embed(index: MemoryIndex): void {
    const embeddings = index.embeddings;
    if (!embeddings?.behind()) return;
    void vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: 'AgentM: embedding notes' },
      async (progress) => {
        const report = await embeddings.runInBackground({
          onProgress: (p) => progress.report({ message: `${p.done}/${p.total}` }),
        });
        if (report && report.embedded > 0) this.#changed.fire();
      },
    );
  }

  /** Index writes of this window one after another (each also takes the index directory's lock). */
  #enqueue<T>(work: () => Promise<T>): Promise<T> {
    const next = this.#updates.then(work, work);
    this.#updates = next.catch(() => undefined);
    return next;
  }

  /**
   * Notes that changed are re-read (`update`). A folder that appeared or vanished is walked (`refresh`):
   * its files may have been written before any watcher saw the folder.
   */
  #onFiles(uris: readonly vscode.Uri[]): void {
    const opened = this.#opened;
    if (!opened) return;
    void opened.index
      .then(async (index) => {
        const notes: Locator[] = [];
        let walk = false;
        for (const uri of new Map(uris.map((u) => [u.fsPath, u])).values()) {
          const rel = relative(opened.root, uri.fsPath);
          if (rel === '' || rel.startsWith('..')) continue;
          if (rel.endsWith('.md')) notes.push(index.backend.resolve(...rel.split(sep)));
          else if (!(await isFile(uri.fsPath))) walk = true;
        }
        if (!walk && notes.length === 0) return;
        await this.#enqueue(() => (walk ? index.refresh() : index.update(notes)));
        if (this.#opened === opened) this.#ready(index, opened.root);
      })
      // The next change or a reindex tries again. An index no longer in use (its store was deselected, and
      // maybe deleted, while watcher events for it were still on their way) has nothing to report.
      .catch((error: unknown) => this.#opened === opened && this.onBackgroundError(error));
  }

  /** A store's change feed said something changed: a refresh from the index's cursor reads just that. */
  #onKeys(keys: readonly string[] | undefined): void {
    const opened = this.#opened;
    if (!opened || (keys !== undefined && !keys.some((k) => k.endsWith('.md')))) return;
    void opened.index
      .then(async (index) => {
        await this.#enqueue(() => index.refresh());
        if (this.#opened === opened) this.#ready(index, opened.root);
      })
      .catch((error: unknown) => this.#opened === opened && this.onBackgroundError(error));
  }

  async #dropIfMoved(): Promise<void> {
    const ws = await this.tracker.current().catch(() => undefined);
    if (this.#opened && ws?.workspace !== this.#opened.workspace) {
      this.#opened = undefined;
      this.#status = { state: 'closed', dir: undefined, documents: 0, memoryRoot: undefined };
      this.onBackgroundError(undefined); // trouble with the old store's index is not this one's
      this.#changed.fire();
    }
  }

  dispose(): void {
    for (const s of this.#subscriptions) s.dispose();
    this.#changed.dispose();
  }
}

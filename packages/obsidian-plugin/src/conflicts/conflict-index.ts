import { debounce, Events, Notice, TFile, TFolder, type App, type Component, type TAbstractFile } from 'obsidian';
import type { PluginHost } from '../host.js';
import { nameOf, parentOf } from '../vault-paths.js';
import { findVaultConflicts, type VaultConflict } from './classify.js';
import { progressLogFor } from './harness-log.js';
import { listLostAndFound } from './lost-and-found.js';

/** One conflict copy the view lists. */
export interface ConflictEntry {
  /** Stable id: the copy's vault path, or `lost-and-found:<absolute path>`. */
  readonly id: string;
  readonly source: 'vault' | 'lost-and-found';
  /** Vault path of the copy, or its absolute path for a lost-and-found file. */
  readonly copyPath: string;
  /** Vault path of the original (for lost-and-found: the one vault file of that name, if exactly one). */
  readonly originalPath: string | undefined;
  readonly originalExists: boolean;
  readonly family: string;
  readonly tool: string;
  /** The original's hash when this copy was first seen (`null`: it was absent), for "I merged it by hand". */
  readonly originalHashAtDetection: string | null;
  /** The sibling progress log when the original is harness state. */
  readonly progressLog: string | undefined;
}

export interface ConflictGroup {
  /** The original's vault path, or a label for lost-and-found files without one. */
  readonly original: string;
  readonly entries: readonly ConflictEntry[];
}

const LOST_AND_FOUND_LABEL = 'Google Drive lost and found';

/** Vault folders whose conflict copies must be read again, gathered from vault events. */
interface Touched {
  /** Folders where a file appeared, vanished or was renamed: their own files are re-read. */
  readonly folders: Set<string>;
  /** Folders that appeared, vanished or were renamed: everything under them is re-read. */
  readonly trees: Set<string>;
}

/**
 * The live list of conflict copies. `refresh` builds it whole (at start, when the view opens, on its
 * Refresh button, after a settings change); after that, vault events update it where they happened: a
 * file created, deleted or renamed re-reads the conflict names of its folder only, a folder event the
 * tree under it, and a modify (by far the commonest event: agents writing) costs nothing, since writing
 * a file changes no name. Updates are gathered for a short debounce and serialized with rebuilds.
 * Emits `changed` after each update and shows a Notice when copies arrive that nobody announced.
 */
export class ConflictIndex extends Events {
  #entries = new Map<string, ConflictEntry>();
  #announced = new Set<string>();
  #first = true;
  #queue: Promise<unknown> = Promise.resolve();
  #touched: Touched = { folders: new Set(), trees: new Set() };

  constructor(
    private readonly app: App,
    private readonly host: PluginHost,
    private readonly options: () => { readonly scanLostAndFound: boolean },
    private readonly hashOf: (path: string) => Promise<string | null>,
  ) {
    super();
  }

  /** Watches the vault for the lifetime of `owner` (every listener and the pending update end with it). */
  start(owner: Component): void {
    const later = debounce(() => void this.#update(), this.host.rescanDebounceMs, true);
    const touch = (file: TAbstractFile, path = file.path) => {
      if (path.startsWith('.')) return;
      if (file instanceof TFolder) this.#touched.trees.add(path);
      else this.#touched.folders.add(parentOf(path));
      later();
    };
    owner.registerEvent(this.app.vault.on('create', (file) => touch(file)));
    owner.registerEvent(this.app.vault.on('delete', (file) => touch(file)));
    owner.registerEvent(
      this.app.vault.on('rename', (file, oldPath) => {
        touch(file, oldPath);
        touch(file);
      }),
    );
    owner.register(() => later.cancel());
  }

  entries(): ConflictEntry[] {
    return [...this.#entries.values()];
  }

  get(id: string): ConflictEntry | undefined {
    return this.#entries.get(id);
  }

  /** Entries grouped by original, originals sorted, lost-and-found files without one last. */
  groups(): ConflictGroup[] {
    const groups = new Map<string, ConflictEntry[]>();
    for (const entry of this.#entries.values()) {
      const key = entry.originalPath ?? LOST_AND_FOUND_LABEL;
      groups.set(key, [...(groups.get(key) ?? []), entry]);
    }
    return [...groups]
      .sort(([a], [b]) => (a === LOST_AND_FOUND_LABEL ? 1 : b === LOST_AND_FOUND_LABEL ? -1 : a.localeCompare(b)))
      .map(([original, entries]) => ({ original, entries }));
  }

  /** A copy the plugin itself just wrote and reported: no second Notice when it appears. */
  announce(copyPath: string): void {
    this.#announced.add(copyPath);
  }

  /** Rebuilds the list now (serialized with any update in flight); resolves with the copies that arrived. */
  refresh(): Promise<ConflictEntry[]> {
    this.#touched = { folders: new Set(), trees: new Set() }; // the rebuild reads everything
    return this.#serialized(() => this.#rebuild());
  }

  #serialized(work: () => Promise<ConflictEntry[]>): Promise<ConflictEntry[]> {
    const run = this.#queue.then(work);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #rebuild(): Promise<ConflictEntry[]> {
    const next = new Map<string, ConflictEntry>();
    const files = this.app.vault.getFiles();
    for (const c of findVaultConflicts(files.map((f) => f.path))) next.set(c.copyPath, await this.#vaultEntry(c));
    if (this.options().scanLostAndFound) {
      for (const lost of await listLostAndFound(this.host.lostAndFoundRoots)) {
        const same = files.filter((f) => f.name === lost.name);
        const originalPath = same.length === 1 ? same[0]!.path : undefined;
        const id = `lost-and-found:${lost.path}`;
        const known = this.#entries.get(id);
        next.set(id, {
          id,
          source: 'lost-and-found',
          copyPath: lost.path,
          originalPath,
          originalExists: originalPath !== undefined,
          family: 'lost-and-found',
          tool: 'Google Drive (lost_and_found)',
          originalHashAtDetection: known
            ? known.originalHashAtDetection
            : originalPath
              ? await this.hashOf(originalPath)
              : null,
          progressLog: undefined,
        });
      }
    }
    return this.#commit(next);
  }

  /** Re-reads the folders vault events touched since the last update. */
  #update(): Promise<ConflictEntry[]> {
    return this.#serialized(async () => {
      const { folders, trees } = this.#touched;
      this.#touched = { folders: new Set(), trees: new Set() };
      if (folders.size === 0 && trees.size === 0) return [];
      const next = new Map(this.#entries);
      for (const tree of trees) {
        for (const [id, e] of next) if (e.source === 'vault' && isUnder(e.copyPath, tree)) next.delete(id);
        const folder = this.app.vault.getFolderByPath(tree);
        if (folder) for (const sub of foldersIn(folder)) folders.add(sub.path);
      }
      for (const path of folders) {
        for (const [id, e] of next) if (e.source === 'vault' && parentOf(e.copyPath) === path) next.delete(id);
        const folder = path === '' ? this.app.vault.getRoot() : this.app.vault.getFolderByPath(path);
        const files = folder?.children.filter((c) => c instanceof TFile).map((c) => c.path) ?? [];
        for (const c of findVaultConflicts(files)) next.set(c.copyPath, await this.#vaultEntry(c));
      }
      return this.#commit(next);
    });
  }

  /** The entry of a vault conflict; a copy already listed keeps the original's hash from when it was first seen. */
  async #vaultEntry(c: VaultConflict): Promise<ConflictEntry> {
    const known = this.#entries.get(c.copyPath);
    const originalHashAtDetection = known ? known.originalHashAtDetection : await this.hashOf(c.originalPath);
    return {
      id: c.copyPath,
      source: 'vault',
      ...c,
      originalHashAtDetection,
      progressLog: progressLogFor(c.originalPath),
    };
  }

  #commit(next: Map<string, ConflictEntry>): ConflictEntry[] {
    const arrived = [...next.values()].filter((e) => !this.#entries.has(e.id));
    this.#entries = next;
    this.#notify(arrived);
    this.trigger('changed');
    return arrived;
  }

  #notify(arrived: ConflictEntry[]): void {
    const first = this.#first;
    this.#first = false;
    const news = arrived.filter((e) => !this.#announced.delete(e.copyPath));
    if (news.length === 0) return;
    if (first) {
      new Notice(
        `AgentM: ${news.length} conflict ${news.length === 1 ? 'copy needs' : 'copies need'} attention. Open the conflicts view to resolve them.`,
      );
      return;
    }
    const names = news.map((e) => `"${nameOf(e.copyPath)}"`).join(', ');
    new Notice(
      `AgentM: new conflict ${news.length === 1 ? 'copy' : 'copies'} ${names}. Open the conflicts view to resolve ${news.length === 1 ? 'it' : 'them'}.`,
    );
  }
}

/** Whether `path` lies inside folder `folder` (at any depth). */
function isUnder(path: string, folder: string): boolean {
  return folder === '' || path.startsWith(`${folder}/`);
}

/** `folder` and every folder below it. */
function foldersIn(folder: TFolder): TFolder[] {
  return [folder, ...folder.children.filter((c) => c instanceof TFolder).flatMap((c) => foldersIn(c))];
}

import { debounce, Events, Notice, type App, type Component, type TAbstractFile } from 'obsidian';
import type { PluginHost } from '../host.js';
import { nameOf } from '../vault-paths.js';
import { findVaultConflicts } from './classify.js';
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

/**
 * The live list of conflict copies: built on demand (`refresh`), rebuilt after vault events (debounced),
 * never during `onload` (the caller starts it on layout ready). Emits `changed` after each rebuild and
 * shows a Notice when copies arrive that nobody announced.
 */
export class ConflictIndex extends Events {
  #entries = new Map<string, ConflictEntry>();
  #announced = new Set<string>();
  #first = true;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly app: App,
    private readonly host: PluginHost,
    private readonly options: () => { readonly scanLostAndFound: boolean },
    private readonly hashOf: (path: string) => Promise<string | null>,
  ) {
    super();
  }

  /** Watches the vault for the lifetime of `owner` (every listener and the pending rebuild end with it). */
  start(owner: Component): void {
    const later = debounce(() => void this.refresh(), this.host.rescanDebounceMs, true);
    const schedule = (file: TAbstractFile) => {
      if (!file.path.startsWith('.')) later();
    };
    owner.registerEvent(this.app.vault.on('create', schedule));
    owner.registerEvent(this.app.vault.on('delete', schedule));
    owner.registerEvent(this.app.vault.on('modify', schedule));
    owner.registerEvent(this.app.vault.on('rename', schedule));
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

  /** Rebuilds the list now (serialized with any rebuild in flight); resolves with the copies that arrived. */
  refresh(): Promise<ConflictEntry[]> {
    const run = this.#queue.then(() => this.#rebuild());
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #rebuild(): Promise<ConflictEntry[]> {
    const next = new Map<string, ConflictEntry>();
    const files = this.app.vault.getFiles();
    for (const c of findVaultConflicts(files.map((f) => f.path))) {
      const known = this.#entries.get(c.copyPath);
      const originalHashAtDetection = known ? known.originalHashAtDetection : await this.hashOf(c.originalPath);
      next.set(c.copyPath, {
        id: c.copyPath,
        source: 'vault',
        ...c,
        originalHashAtDetection,
        progressLog: progressLogFor(c.originalPath),
      });
    }
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

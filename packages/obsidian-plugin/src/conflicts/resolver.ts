import { readFile } from 'node:fs/promises';
import type { App } from 'obsidian';
import { ConcurrentModificationError } from '@agentm/core/write-protocol';
import { contentHash } from '@agentm/core/write-protocol';
import type { PluginHost } from '../host.js';
import type { AgentWriter } from '../write/agent-writer.js';
import type { ConflictEntry } from './conflict-index.js';
import {
  CopyChangedError,
  CopyStillChangingError,
  OriginalChangedError,
  OriginalUnchangedError,
  ReadOnlyConflictError,
} from './errors.js';
import { resolutionLine } from './harness-log.js';

/** The bytes the user reviewed: the hashes shown with the diff. */
export interface Shown {
  readonly copyHash: string;
  /** `null` when the original was absent. */
  readonly originalHash: string | null;
}

export type ResolveAction = 'keep-original' | 'keep-copy' | 'merged-by-hand';

export interface Resolution {
  readonly action: ResolveAction;
  readonly removed: string;
  /** The progress log the resolution was recorded in (harness state only). */
  readonly logged: string | undefined;
}

const LOG_WORDS: Record<ResolveAction, string> = {
  'keep-original': 'kept the original',
  'keep-copy': 'kept the copy',
  'merged-by-hand': 'merged by hand',
};

/**
 * The three ways to settle a conflict copy. Each runs entirely under the agentm lock (after the user
 * confirmed), and first re-reads the copy there: it refuses if the copy's bytes are not the ones shown
 * (`CopyChangedError`) or if it was modified within the settle window (`CopyStillChangingError`), so
 * AgentM never acts on a copy a sync tool is still writing. A refusal changes nothing.
 */
export class ConflictResolver {
  constructor(
    private readonly app: App,
    private readonly writer: AgentWriter,
    private readonly host: PluginHost,
  ) {}

  /** Removes the copy (to the trash); the original stays as it is. */
  keepOriginal(entry: ConflictEntry, shown: Shown): Promise<Resolution> {
    return this.#resolve('keep-original', entry, shown, async () => undefined);
  }

  /** Replaces the original with the copy (CAS against the original shown), then removes the copy. */
  keepCopy(entry: ConflictEntry, shown: Shown): Promise<Resolution> {
    return this.#resolve('keep-copy', entry, shown, async (copyText) => {
      try {
        await this.writer.casWrite(entry.originalPath!, copyText, shown.originalHash);
      } catch (error) {
        if (error instanceof ConcurrentModificationError) throw new OriginalChangedError(entry.originalPath!, error);
        throw error;
      }
    });
  }

  /** Removes the copy once the original differs from what it was when the copy was found. */
  mergedByHand(entry: ConflictEntry, shown: Shown): Promise<Resolution> {
    return this.#resolve('merged-by-hand', entry, shown, async () => {
      if ((await this.writer.currentHash(entry.originalPath!)) === entry.originalHashAtDetection) {
        throw new OriginalUnchangedError(entry.originalPath!, entry.copyPath);
      }
    });
  }

  /**
   * Copies a lost-and-found file beside its original as an AgentM conflict copy (the lost_and_found
   * folder itself is never changed), where the normal actions apply.
   */
  async bringIntoVault(entry: ConflictEntry): Promise<string> {
    if (entry.source !== 'lost-and-found' || !entry.originalPath) throw new ReadOnlyConflictError(entry.copyPath);
    const text = await readFile(entry.copyPath, 'utf8');
    return this.writer.keepAsConflictCopy(entry.originalPath, text);
  }

  async #resolve(
    action: ResolveAction,
    entry: ConflictEntry,
    shown: Shown,
    apply: (copyText: string) => Promise<void>,
  ): Promise<Resolution> {
    if (entry.source !== 'vault' || !entry.originalPath) throw new ReadOnlyConflictError(entry.copyPath);
    return this.writer.lock.run(async () => {
      const copyText = await this.#settledCopy(entry.copyPath, shown.copyHash);
      await apply(copyText);
      await this.writer.trash(entry.copyPath);
      if (entry.progressLog) {
        await this.writer.appendLine(
          entry.progressLog,
          resolutionLine(this.host.now(), LOG_WORDS[action], entry.originalPath!, entry.copyPath),
        );
      }
      return { action, removed: entry.copyPath, logged: entry.progressLog };
    });
  }

  /** The copy's text, read under the lock, if it is still exactly what was shown and has stopped changing. */
  async #settledCopy(copyPath: string, shownHash: string): Promise<string> {
    const adapter = this.app.vault.adapter;
    const stat = await adapter.stat(copyPath);
    if (!stat || stat.type !== 'file') throw new CopyChangedError(copyPath, shownHash, null);
    const age = this.host.now().getTime() - stat.mtime;
    if (age < this.host.settleMs) throw new CopyStillChangingError(copyPath, Math.max(0, age), this.host.settleMs);
    const text = await adapter.read(copyPath);
    const hash = contentHash(text);
    if (hash !== shownHash) throw new CopyChangedError(copyPath, shownHash, hash);
    return text;
  }
}

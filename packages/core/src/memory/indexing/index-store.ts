import { randomBytes } from 'node:crypto';
import { appendFileSync, statSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '../../write-protocol/atomic-write.js';
import {
  decodeSnapshot,
  encodeSnapshot,
  INDEX_SCHEMA_VERSION,
  SnapshotDecodeError,
  type SnapshotMeta,
} from './codec.js';
import type { IndexState } from './index-state.js';
import { journalHeader, journalLines, parseJournal, type JournalOp, type ParsedJournal } from './journal.js';

export const SNAPSHOT_FILE = 'index.snap';
export const JOURNAL_FILE = 'journal.log';

export type LoadResult =
  | {
      readonly status: 'loaded';
      readonly state: IndexState;
      readonly meta: SnapshotMeta;
      readonly journal: ParsedJournal | undefined;
    }
  | { readonly status: 'missing' | 'corrupt' | 'outdated'; readonly detail: string };

/**
 * The index's files in its directory. The snapshot is replaced whole by `atomicWrite`, so a reader (or
 * a crash) sees the old one or the new one; the journal is created by `atomicWrite` and then appended
 * to, each line checksummed (see journal.ts). No fsync: the index is a cache — a file lost to a power
 * cut fails its checksum and is rebuilt, or re-found, from the Markdown, which is fsynced.
 */
export class IndexStore {
  constructor(readonly dir: string) {}

  get snapshotPath(): string {
    return join(this.dir, SNAPSHOT_FILE);
  }

  get journalPath(): string {
    return join(this.dir, JOURNAL_FILE);
  }

  /** Loads the snapshot and the journal that extends it; never throws for a bad index, reports it. */
  async load(root: string): Promise<LoadResult> {
    let bytes: Buffer;
    try {
      bytes = await readFile(this.snapshotPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { status: 'missing', detail: `no ${SNAPSHOT_FILE} in ${this.dir}` };
      throw error;
    }
    let decoded: ReturnType<typeof decodeSnapshot>;
    try {
      decoded = decodeSnapshot(bytes);
    } catch (error) {
      if (error instanceof SnapshotDecodeError) return { status: error.reason, detail: error.message };
      return { status: 'corrupt', detail: (error as Error).message };
    }
    if (decoded.meta.root !== root)
      return { status: 'outdated', detail: `built for ${decoded.meta.root}, not ${root}` };
    return {
      status: 'loaded',
      state: decoded.state,
      meta: decoded.meta,
      journal: await this.readJournal(decoded.meta.snapshotId),
    };
  }

  /** The journal extending `snapshotId`, or undefined when absent, unreadable or for another snapshot. */
  async readJournal(snapshotId: string): Promise<ParsedJournal | undefined> {
    let text: string;
    try {
      text = await readFile(this.journalPath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const journal = parseJournal(text, INDEX_SCHEMA_VERSION);
    return journal && journal.snapshotId === snapshotId ? journal : undefined;
  }

  /** Writes a new snapshot of `state`, then clears the journal it supersedes. Returns its metadata. */
  async writeSnapshot(state: IndexState, root: string, builtMs: number): Promise<SnapshotMeta> {
    const meta: SnapshotMeta = { root, snapshotId: randomBytes(8).toString('hex'), builtMs };
    await atomicWrite(this.snapshotPath, encodeSnapshot(state, meta), { fsync: false });
    // A crash here leaves the old journal, naming the old snapshot: it is ignored on load.
    await rm(this.journalPath, { force: true });
    return meta;
  }

  /** Replaces the journal with exactly these ops (a new journal, or one that had a torn line). */
  async writeJournal(snapshotId: string, ops: readonly JournalOp[]): Promise<void> {
    await atomicWrite(this.journalPath, journalHeader(INDEX_SCHEMA_VERSION, snapshotId) + journalLines(ops), {
      fsync: false,
    });
  }

  /**
   * Appends ops to a journal `writeJournal` created. Synchronously, like `stamp`: a few kilobytes to
   * a local cache file (never the vault), done in microseconds, where a round trip through the I/O
   * thread pool of a busy machine made one-note updates' slowest percent wait tens of milliseconds.
   */
  async appendJournal(ops: readonly JournalOp[]): Promise<void> {
    appendFileSync(this.journalPath, journalLines(ops));
  }

  /** A stamp that changes whenever another process replaces the snapshot or the journal. */
  async stamp(): Promise<string> {
    const part = (path: string) => {
      try {
        const st = statSync(path, { throwIfNoEntry: false });
        return st ? `${st.mtimeMs}:${st.size}:${st.ino}` : '-';
      } catch {
        return '-';
      }
    };
    return `${part(this.snapshotPath)}|${part(this.journalPath)}`;
  }
}

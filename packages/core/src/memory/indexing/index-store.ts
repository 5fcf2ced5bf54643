import { appendFileSync, readFileSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '../../write-protocol/atomic-write.js';
import { encodeSnapshot, INDEX_SCHEMA_VERSION, openSnapshot, SnapshotDecodeError, type SnapshotMeta } from './codec.js';
import type { IndexState } from './index-state.js';
import type { SourceMarks } from './source-marks.js';
import { journalHeader, journalLines, parseJournal, type JournalOp, type ParsedJournal } from './journal.js';
import { nodeCrypto } from '../../write-protocol/content-hash.js';

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
 * The index's files in its directory. The snapshot is replaced whole by `atomicWrite`, fsynced, so a
 * reader (or a crash) sees the old one or the new one; the journal is created by `atomicWrite` and then
 * appended to, each line checksummed (see journal.ts), without fsync: a journal line lost to a power cut
 * fails its checksum, and the change it held is found again from the Markdown, which is fsynced.
 */
export class IndexStore {
  constructor(readonly dir: string) {}

  get snapshotPath(): string {
    return join(this.dir, SNAPSHOT_FILE);
  }

  get journalPath(): string {
    return join(this.dir, JOURNAL_FILE);
  }

  /**
   * Loads the snapshot and the journal that extends it; never throws for a bad index, reports it.
   * `verify: false`: the snapshot's structure is checked, not its checksum (see `decodeSnapshot`);
   * `uncounted`: its sections' memory is not counted by V8 (see `openSnapshot`).
   */
  async load(
    root: string,
    options: { readonly verify?: boolean; readonly uncounted?: boolean } = {},
  ): Promise<LoadResult> {
    let opened: ReturnType<typeof openSnapshot>;
    try {
      // Synchronous, and paged: the header now, a section's pages when recall reads them (snapshot-pages.ts).
      opened = openSnapshot(this.snapshotPath, options);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { status: 'missing', detail: `no ${SNAPSHOT_FILE} in ${this.dir}` };
      if (error instanceof SnapshotDecodeError) return { status: error.reason, detail: error.message };
      if (error instanceof RangeError) return { status: 'corrupt', detail: error.message };
      throw error;
    }
    if (opened.meta.root !== root) return { status: 'outdated', detail: `built for ${opened.meta.root}, not ${root}` };
    return {
      status: 'loaded',
      state: opened.state,
      meta: opened.meta,
      journal: await this.readJournal(opened.meta.snapshotId),
    };
  }

  /** The journal extending `snapshotId`, or undefined when absent, unreadable or for another snapshot. */
  async readJournal(snapshotId: string): Promise<ParsedJournal | undefined> {
    let text: string;
    try {
      text = readFileSync(this.journalPath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    const journal = parseJournal(text, INDEX_SCHEMA_VERSION);
    return journal && journal.snapshotId === snapshotId ? journal : undefined;
  }

  /** Writes a new snapshot of `state`, then clears the journal it supersedes. Returns its metadata. */
  async writeSnapshot(state: IndexState, root: string, builtMs: number, marks: SourceMarks): Promise<SnapshotMeta> {
    const meta: SnapshotMeta = { root, snapshotId: nodeCrypto().randomBytes(8).toString('hex'), builtMs, marks };
    // Durable before it replaces the old one: a power cut leaves one snapshot or the other, whole, never
    // a torn one that an answer (which checks the structure, not the checksum) would read.
    await atomicWrite(this.snapshotPath, encodeSnapshot(state, meta));
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

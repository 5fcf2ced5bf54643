import { MarkdownView, type App, type TFile } from 'obsidian';
import { ConcurrentModificationError } from '@agentm/core/write-protocol';
import { agentmConflictName, casWriteFile, checkExpectation, contentHash } from '@agentm/core/write-protocol';
import { diskPath } from '../disk.js';
import type { PluginHost } from '../host.js';
import { joinVaultPath, nameOf, parentOf } from '../vault-paths.js';
import type { LockGate } from './lock-gate.js';

/** How a guarded write ended: it landed, or it lost its CAS and the new text was kept as a conflict copy. */
export type WriteOutcome =
  | { readonly kind: 'written'; readonly path: string }
  | {
      readonly kind: 'conflict-copy';
      readonly path: string;
      readonly copyPath: string;
      readonly error: ConcurrentModificationError;
    };

const CONFLICT_NAME_ATTEMPTS = 10;
const APPEND_ATTEMPTS = 3;

/**
 * Writes vault files the way every agent does (DESIGN §5): under the agentm lock, as a compare-and-swap
 * on the content hash, atomically.
 *
 * - A file open in an Obsidian editor is written with `Vault.process`, so the editor takes the new text
 *   from the app itself instead of meeting a foreign change on disk (Obsidian's own "file changed on
 *   disk" merge is a writer the lock cannot see); the hash check runs inside `process`, on the bytes it
 *   is about to replace.
 * - Any other file goes through core's `casWriteFile` on the adapter's disk path: a dot-prefixed temp
 *   (Obsidian and its Sync ignore it) written and fsynced outside the lock, then, under the lock, a
 *   synchronous re-hash immediately before the rename. The DataAdapter cannot do this: `adapter.write`
 *   truncates in place (a reader or a crash sees half a file) and has no compare step, and a hash check
 *   followed by an async adapter rename leaves a window. The app's watcher reports the rename as a change.
 */
export class AgentWriter {
  constructor(
    private readonly app: App,
    private readonly gate: LockGate,
    private readonly host: PluginHost,
  ) {}

  /** The lock this writer takes. */
  get lock(): LockGate {
    return this.gate;
  }

  /** The sha256 of the file's bytes on disk now, or `null` when it is absent. */
  async currentHash(path: string): Promise<string | null> {
    const adapter = this.app.vault.adapter;
    const stat = await adapter.stat(path);
    if (!stat || stat.type !== 'file') return null;
    return contentHash(await adapter.read(path));
  }

  /**
   * Replaces (or creates) `path` with `content` under the lock, if the file still hashes to `expectHash`
   * (`null`: must be absent; `undefined`: whatever is there when the lock is taken). Throws
   * `ConcurrentModificationError` and writes nothing otherwise.
   */
  async casWrite(path: string, content: string, expectHash?: string | null): Promise<void> {
    const open = this.#openFile(path);
    if (open) {
      await this.gate.run(async (hold) => {
        await this.app.vault.process(open, (data) => {
          hold.assertHeld();
          if (expectHash !== undefined) checkExpectation(path, expectHash, contentHash(data));
          return content;
        });
      });
      return;
    }
    await casWriteFile(diskPath(this.app, path), content, {
      expectHash,
      label: path,
      critical: (commit) => this.gate.run((hold) => commit(hold)),
    });
  }

  /**
   * `casWrite`, except that a lost CAS never loses the text: it is written beside the original as an
   * AgentM conflict copy (`<name> (agentm conflict <device> <stamp>).md`) and reported.
   */
  async writeOrKeepBoth(path: string, content: string, expectHash?: string | null): Promise<WriteOutcome> {
    try {
      await this.casWrite(path, content, expectHash);
      return { kind: 'written', path };
    } catch (error) {
      if (!(error instanceof ConcurrentModificationError)) throw error;
      return { kind: 'conflict-copy', path, copyPath: await this.keepAsConflictCopy(path, content), error };
    }
  }

  /** Appends one line (LF-terminated) through the CAS, retrying from a fresh read when an outside writer interferes. */
  async appendLine(path: string, line: string): Promise<void> {
    await this.gate.run(async () => {
      for (let attempt = 1; ; attempt++) {
        const adapter = this.app.vault.adapter;
        const current = (await adapter.exists(path)) ? await adapter.read(path) : null;
        const base = current === null || current === '' || current.endsWith('\n') ? (current ?? '') : `${current}\n`;
        try {
          await this.casWrite(path, `${base}${line}\n`, current === null ? null : contentHash(current));
          return;
        } catch (error) {
          if (!(error instanceof ConcurrentModificationError) || attempt >= APPEND_ATTEMPTS) throw error;
        }
      }
    });
  }

  /** Moves a file to the trash the user chose in Obsidian (system trash or `.trash`); the caller holds the lock. */
  async trash(path: string): Promise<void> {
    const file = this.app.vault.getAbstractFileByPath(path);
    if (file) {
      await this.app.fileManager.trashFile(file);
      return;
    }
    const adapter = this.app.vault.adapter;
    if (!(await adapter.trashSystem(path))) await adapter.trashLocal(path);
  }

  /** Writes `content` beside `path` as a new AgentM conflict copy (never over an existing file); returns its path. */
  async keepAsConflictCopy(path: string, content: string): Promise<string> {
    const start = this.host.now().getTime();
    for (let i = 0; ; i++) {
      const copyPath = joinVaultPath(
        parentOf(path),
        agentmConflictName(nameOf(path), this.host.deviceName, new Date(start + i * 1000)),
      );
      try {
        await this.casWrite(copyPath, content, null);
        return copyPath;
      } catch (error) {
        if (!(error instanceof ConcurrentModificationError) || i + 1 >= CONFLICT_NAME_ATTEMPTS) throw error;
      }
    }
  }

  #openFile(path: string): TFile | undefined {
    let found: TFile | undefined;
    this.app.workspace.iterateAllLeaves((leaf) => {
      const view = leaf.view;
      if (view instanceof MarkdownView && view.file?.path === path) found = view.file;
    });
    return found;
  }
}

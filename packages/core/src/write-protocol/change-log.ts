import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { MAGIC, PREVIOUS_CHANGE_LOG_FILE, readHeader, record } from './change-log-read.js';
import { nodeCrypto } from './content-hash.js';

/**
 * The store's change log: every AgentM writer on this machine (the CLI, `agentm mcp`, the hooks, VS Code,
 * Obsidian's backend — each writes through a backend) appends the key of each file it writes or removes,
 * after the file is in place. A derived index that remembers how far it has read (a `ChangeCursor`)
 * catches up with AgentM's own writes by reading a few lines instead of stat-ing every note: a note AgentM
 * wrote is in the next answer. Edits by other programs are not here; the index finds those by other means.
 *
 * Where: beside the store's lock, `<lockRoot>/<sha256 of realpath(store root)>/changes.log` — device-local,
 * never synced, keyed like the lock so that every writer and every index of one store find the same file.
 *
 * Format: a header `AGMLOG\t{"id","prev"}\t<sum>`, then records, each `\n<key as JSON>\t<sum>` (sum: the
 * first 8 hex of the sha256 of what precedes the tab). A record begins with its newline, so a record torn
 * by a crash never swallows the next one; a torn record fails its sum and is skipped once a later record
 * follows it (the change it stood for is left to the index's revalidation). Appends are single `write`s
 * with O_APPEND, so concurrent writers (the device-local store takes no lock) never interleave within a
 * record.
 *
 * Growth: past `CHANGE_LOG_LIMIT_BYTES` the writer that crossed it (one at a time) links the log as
 * `changes.1.log` (the previous generation, replacing an older one) and renames a new one, naming it as
 * `prev`, over it: the log never disappears. A cursor in the current or the previous generation reads on;
 * an older cursor is lost, and its index walks the store once. Reading is change-log-read.ts.
 */
export const CHANGE_LOG_FILE = 'changes.log';

/** Size past which the log starts a new generation (about 6 000 records of typical keys). */
export const CHANGE_LOG_LIMIT_BYTES = 512 * 1024;

/** The change log of the store whose lock directory is `lockDir` (see `lockDirFor`). */
export function changeLogPathFor(lockDir: string): string {
  return join(dirname(lockDir), CHANGE_LOG_FILE);
}

/**
 * Appends `keys` to the log at `path`, creating it (and its folder) when absent. Never throws: the write
 * it records has already landed, and a log that cannot be appended to is removed instead, so that no
 * reader trusts a log with a gap (it then walks the store). Returns false when the keys could not be
 * recorded.
 */
export function appendChanges(path: string, keys: readonly string[], limitBytes = CHANGE_LOG_LIMIT_BYTES): boolean {
  if (keys.length === 0) return true;
  const text = keys.map((key) => `\n${record(JSON.stringify(key))}`).join('');
  try {
    // A rotation between our open and our write leaves the records in the previous generation, possibly
    // after a reader moved on: then they are written again into the current one (a reader may see a key
    // twice, never miss it).
    for (let attempt = 0; attempt < 4; attempt++) {
      const fd = openLog(path);
      let own: Stats;
      let current: boolean;
      try {
        writeSync(fd, text);
        own = fstatSync(fd);
        const now = statSync(path, { throwIfNoEntry: false });
        current = now !== undefined && now.ino === own.ino && now.dev === own.dev;
      } finally {
        closeSync(fd);
      }
      if (!current) continue;
      if (own.size > limitBytes) rotate(path, own.ino);
      return true;
    }
    throw new Error('the log kept being rotated while it was written');
  } catch {
    try {
      unlinkSync(path);
    } catch {
      // Nothing more to do: the log cannot be written or removed (a full or read-only disk).
    }
    return false;
  }
}

/** Opens the log for appending, creating it whole (header included) when absent. */
function openLog(path: string): number {
  // Never O_CREAT: a log made by an append would have no header.
  const flags = constants.O_WRONLY | constants.O_APPEND;
  try {
    return openSync(path, flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  createLog(path);
  return openSync(path, flags);
}

/** A complete log (header only, fresh id) in a temp file beside `path`; the caller links or renames it into place. */
function newLogFile(path: string, prev: string | undefined): string {
  mkdirSync(dirname(path), { recursive: true });
  const header = record(
    `${MAGIC}\t${JSON.stringify({ id: nodeCrypto().randomBytes(8).toString('hex'), prev: prev ?? null })}`,
  );
  const temp = `${path}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, header);
  return temp;
}

/**
 * Creates the first log: linked into place, which fails when another writer created it first (then
 * theirs is used). No reader ever sees a log without its header.
 */
function createLog(path: string): void {
  const temp = newLogFile(path, undefined);
  try {
    linkSync(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(temp);
  }
}

/** How old a rotation marker must be before another writer presumes its rotator dead. */
const ROTATION_STALE_MS = 10_000;

/**
 * Starts a new generation — the current log becomes the previous one — if the log is still the file
 * (`ino`) its writer measured past the limit. One rotator at a time, by an exclusive marker file: two
 * writers rotating at once would otherwise push a generation out that readers are still in.
 */
function rotate(path: string, ino: number): void {
  const marker = `${path}.rotating`;
  let fd: number;
  try {
    fd = openSync(marker, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const age = Date.now() - (statSync(marker, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > ROTATION_STALE_MS) unlinkSync(marker); // its rotator died: the next writer past the limit rotates
    return;
  }
  closeSync(fd);
  try {
    if (statSync(path, { throwIfNoEntry: false })?.ino !== ino) return; // rotated already
    const header = readHeader(path);
    if (!header) return; // a damaged log: its next reader moves it aside
    // The log never disappears (a writer finding no log would start one that names no previous): the
    // current log is linked as the previous one, then the next one replaces it in one rename.
    const previous = join(dirname(path), PREVIOUS_CHANGE_LOG_FILE);
    const next = newLogFile(path, header.id);
    try {
      rmSync(previous, { force: true });
      linkSync(path, previous);
      renameSync(next, path);
    } catch (error) {
      rmSync(next, { force: true });
      throw error;
    }
  } finally {
    unlinkSync(marker);
  }
}

export {
  changeLogEnd,
  parseRecords,
  PREVIOUS_CHANGE_LOG_FILE,
  readChanges,
  type ChangeCursor,
  type ChangeRead,
} from './change-log-read.js';

import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { dirname, join } from 'node:path';

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
 * Growth: past `CHANGE_LOG_LIMIT_BYTES` the writer that crossed it renames the log to `changes.1.log` (the
 * previous generation, replacing an older one) and starts a new one naming it as `prev`. A cursor in the
 * current or the previous generation reads on; an older cursor is lost, and its index walks the store once.
 */
export const CHANGE_LOG_FILE = 'changes.log';
export const PREVIOUS_CHANGE_LOG_FILE = 'changes.1.log';

/** Size past which the log starts a new generation (about 6 000 records of typical keys). */
export const CHANGE_LOG_LIMIT_BYTES = 512 * 1024;

const MAGIC = 'AGMLOG';

/** How far a reader has read: the generation (`id`; undefined when there was no log) and the byte offset in it. */
export interface ChangeCursor {
  readonly id: string | undefined;
  readonly offset: number;
}

/** What a reader found since its cursor. */
export type ChangeRead =
  | { readonly lost: false; readonly keys: ReadonlySet<string>; readonly cursor: ChangeCursor }
  /** The cursor names a generation that is gone (or the log is damaged): the reader must walk the store. */
  | { readonly lost: true; readonly cursor: ChangeCursor };

/** The change log of the store whose lock directory is `lockDir` (see `lockDirFor`). */
export function changeLogPathFor(lockDir: string): string {
  return join(dirname(lockDir), CHANGE_LOG_FILE);
}

const sum = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8);
const record = (body: string) => `${body}\t${sum(body)}`;

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
  const header = record(`${MAGIC}\t${JSON.stringify({ id: randomBytes(8).toString('hex'), prev: prev ?? null })}`);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
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

interface Header {
  readonly id: string;
  readonly prev: string | undefined;
  /** Where the records begin. */
  readonly end: number;
}

/** Reads `length` bytes at `position` of an open file (fewer at its end). */
function readAt(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(Math.max(0, length));
  let got = 0;
  while (got < buffer.length) {
    const n = readSync(fd, buffer, got, buffer.length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buffer.subarray(0, got);
}

function parseHeader(bytes: Buffer): Header | undefined {
  const newline = bytes.indexOf(0x0a);
  const line = bytes.toString('utf8', 0, newline < 0 ? bytes.length : newline);
  const tab = line.lastIndexOf('\t');
  const body = line.slice(0, tab);
  if (tab < 0 || sum(body) !== line.slice(tab + 1) || !body.startsWith(`${MAGIC}\t`)) return undefined;
  try {
    const { id, prev } = JSON.parse(body.slice(MAGIC.length + 1)) as { id?: unknown; prev?: unknown };
    if (typeof id !== 'string') return undefined;
    return { id, prev: typeof prev === 'string' ? prev : undefined, end: Buffer.byteLength(line) };
  } catch {
    return undefined;
  }
}

/** An open generation: its header (undefined when damaged) and size, read through one descriptor. */
interface Generation {
  readonly header: Header | undefined;
  readonly size: number;
  /** Its bytes from `start` to the size seen at opening. */
  from(start: number): Buffer;
}

/** Opens a generation, runs `fn` on it, closes it; `fn(null)` when there is no such file. */
function withGeneration<T>(path: string, fn: (generation: Generation | null) => T): T {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return fn(null);
    throw error;
  }
  try {
    const size = fstatSync(fd).size;
    const header = parseHeader(readAt(fd, 0, 256));
    return fn({ header, size, from: (start) => readAt(fd, start, size - start) });
  } finally {
    closeSync(fd);
  }
}

function readHeader(path: string): Header | undefined {
  try {
    return withGeneration(path, (g) => g?.header);
  } catch {
    return undefined;
  }
}

/**
 * The keys of the records in `bytes` (a generation's bytes from a record boundary), and how many bytes
 * were read: up to the end of the last good record, past torn records that a later record follows.
 */
export function parseRecords(bytes: Uint8Array): { keys: string[]; consumed: number } {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const keys: string[] = [];
  let consumed = 0;
  let at = 0;
  while (at < buffer.length && buffer[at] === 0x0a) {
    const next = buffer.indexOf(0x0a, at + 1);
    const end = next < 0 ? buffer.length : next;
    const line = buffer.toString('utf8', at + 1, end);
    const tab = line.lastIndexOf('\t');
    const body = line.slice(0, tab);
    let key: unknown;
    if (tab > 0 && sum(body) === line.slice(tab + 1)) {
      try {
        key = JSON.parse(body);
      } catch {
        key = undefined;
      }
    }
    if (typeof key === 'string') keys.push(key);
    // The last record: a good one is read; a bad one may still be being written, so it is read again.
    if (next < 0) {
      if (typeof key === 'string') consumed = end;
      break;
    }
    at = consumed = next;
  }
  return { keys, consumed };
}

/** A cursor no log will ever match: its reader walks. */
const LOST: ChangeCursor = Object.freeze({ id: '-', offset: 0 });

/**
 * The keys recorded since `cursor` in the log at `path`, and the cursor to read from next time. A cursor
 * whose generation is neither the current nor the previous one, or a damaged log, is `lost`: the caller
 * walks the store. A damaged log is moved aside (`changes.log.damaged`), so that the next writer starts a
 * new one instead of every reader walking forever.
 */
export function readChanges(path: string, cursor: ChangeCursor): ChangeRead {
  try {
    return withGeneration(path, (current): ChangeRead => {
      const previousPath = join(dirname(path), PREVIOUS_CHANGE_LOG_FILE);
      const keys = new Set<string>();
      const take = (bytes: Buffer) => {
        const parsed = parseRecords(bytes);
        for (const key of parsed.keys) keys.add(key);
        return parsed.consumed;
      };
      /** Reads the previous generation from `start` when it is `id`; the offset reached, or undefined. */
      const takePrevious = (id: string | undefined, start: number | undefined) =>
        withGeneration(previousPath, (previous) => {
          const header = previous?.header;
          if (!previous || !header || (id === undefined ? header.prev !== undefined : header.id !== id))
            return undefined;
          const from = start ?? header.end;
          if (from < header.end || from > previous.size) return undefined;
          return { id: header.id, offset: from + take(previous.from(from)) };
        });
      if (current === null) {
        // No log: nothing recorded since a cursor taken when there was none either; or a rotation is
        // between renaming the log and starting the next one, and the cursor reads on in the previous.
        if (cursor.id === undefined) return { lost: false, keys, cursor: { id: undefined, offset: 0 } };
        const reached = takePrevious(cursor.id, cursor.offset);
        return reached ? { lost: false, keys, cursor: reached } : { lost: true, cursor: LOST };
      }
      const header = current.header;
      if (header === undefined) {
        moveAside(path);
        return { lost: true, cursor: LOST };
      }
      if (cursor.id === header.id) {
        if (cursor.offset < header.end || cursor.offset > current.size) return { lost: true, cursor: LOST };
        return {
          lost: false,
          keys,
          cursor: { id: header.id, offset: cursor.offset + take(current.from(cursor.offset)) },
        };
      }
      // The cursor is in the previous generation, or predates the first log (which may be the previous one).
      if (cursor.id !== undefined || header.prev !== undefined) {
        if (cursor.id !== undefined && cursor.id !== header.prev) return { lost: true, cursor: LOST };
        if (!takePrevious(cursor.id, cursor.id === undefined ? undefined : cursor.offset))
          return { lost: true, cursor: LOST };
      }
      return { lost: false, keys, cursor: { id: header.id, offset: header.end + take(current.from(header.end)) } };
    });
  } catch {
    return { lost: true, cursor: LOST };
  }
}

function moveAside(path: string): void {
  try {
    renameSync(path, `${path}.damaged`);
  } catch {
    // another reader moved it
  }
}

/** The cursor at the log's end now (for an index about to walk everything); a damaged log gives a lost cursor. */
export function changeLogEnd(path: string): ChangeCursor {
  try {
    return withGeneration(path, (current) => {
      if (current === null) return { id: undefined, offset: 0 };
      if (current.header === undefined) return LOST;
      // Up to the last complete record: a record still being written is read next time.
      return {
        id: current.header.id,
        offset: current.header.end + parseRecords(current.from(current.header.end)).consumed,
      };
    });
  } catch {
    return LOST;
  }
}

import { closeSync, fstatSync, openSync, readSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { contentHash } from './content-hash.js';

/**
 * Reading the store's change log (see change-log.ts for what it is and how it is written): the keys
 * recorded since a reader's cursor, across the current and the previous generation.
 */
export const PREVIOUS_CHANGE_LOG_FILE = 'changes.1.log';

export const MAGIC = 'AGMLOG';

/** A record's or the header's checksum: the first 8 hex of the sha256 of what precedes its tab. */
export const sum = (text: string) => contentHash(text).slice(0, 8);
/** `body` as it is written: `<body>\t<sum>`. */
export const record = (body: string) => `${body}\t${sum(body)}`;

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

export interface Header {
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

export function readHeader(path: string): Header | undefined {
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

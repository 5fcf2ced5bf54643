/**
 * Reading a batch of notes of a filesystem store for a cold build: stat, read, hash, map with
 * `noteToDocument` and tokenize, into a PreparedBatch. Done by the read workers (read-worker.ts) and,
 * while they are busy, by the building thread itself (see ReadPool.run).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join, sep } from 'node:path';
import type { MemoryLayout } from '../documents/layout.js';
import type { DocumentLimits } from '../documents/source-documents.js';
import { noteToDocument } from '../note-documents.js';
import { BatchBuilder, type PreparedBatch, type TermDictionary } from './prepare.js';

/** What a reader needs to know of the store. */
export interface ReadBatchData {
  readonly root: string;
  readonly layout: MemoryLayout;
  readonly limits?: DocumentLimits | undefined;
}

/** Keys to read, with the walk's stats (unused: the reader stats each file itself). */
export type ReadItems = readonly { readonly key: string; readonly mtimeMs: number; readonly size: number }[];

type Read = { text: string; bytes: Buffer; mtimeMs: number; size: number } | 'missing' | 'dir';

/**
 * Opens, stats (the mtime and size recorded are those of the bytes read, taken before reading) and
 * reads one file, synchronously: this thread does nothing else meanwhile, and blocking calls cost a
 * fraction of the thread-pool round trips of their async forms. Reads the size the stat gave: a file
 * that grows meanwhile is read again by the next refresh (its mtime and size will differ).
 */
function readOne(path: string): Read {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    if (code === 'EISDIR') return 'dir';
    throw error;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) return 'dir';
    const buffer = Buffer.allocUnsafe(st.size);
    let length = 0;
    while (length < buffer.length) {
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    const bytes = buffer.subarray(0, length);
    return { text: bytes.toString('utf8'), bytes, mtimeMs: st.mtimeMs, size: st.size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') return 'dir';
    throw error;
  } finally {
    closeSync(fd);
  }
}

/** Reads the files of `items` under `data.root` (`<root>/<key>`, exactly what FsBackend.read/info do) into a batch. */
export function readBatch(data: ReadBatchData, items: ReadItems, dictionary: TermDictionary): PreparedBatch {
  // A key is a normalized Locator key (`/`-separated): appended to `<root>/` it is the path on POSIX.
  const prefix = data.root.endsWith(sep) ? data.root : `${data.root}${sep}`;
  const builder = new BatchBuilder(dictionary);
  for (const item of items) {
    const read = readOne(sep === '/' ? `${prefix}${item.key}` : join(data.root, ...item.key.split('/')));
    if (read === 'missing') builder.addMissing(item.key);
    else if (read === 'dir') builder.addDir(item.key);
    else builder.addText(item.key, read.text, read, data.layout, noteToDocument, data.limits, read.bytes);
  }
  return builder.build();
}

/**
 * The read worker of a cold index build (worker_threads): stats and reads batches of notes of a
 * filesystem store directly (`<root>/<key>`, exactly what FsBackend.read/info do), hashes, maps them with
 * `noteToDocument` and tokenizes them, and posts back a `PreparedBatch` (its arrays transferred).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join, sep } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { MemoryLayout } from '../documents/layout.js';
import type { DocumentLimits } from '../documents/source-documents.js';
import { noteToDocument } from '../note-documents.js';
import { BatchBuilder, batchTransferables, TermDictionary } from './prepare.js';

export interface ReadWorkerData {
  readonly root: string;
  readonly layout: MemoryLayout;
  readonly limits?: DocumentLimits | undefined;
}

export interface ReadRequest {
  readonly id: number;
  readonly items: readonly { readonly key: string; readonly mtimeMs: number; readonly size: number }[];
}

const { root, layout, limits } = workerData as ReadWorkerData;
/** `<root>/`: a key (a normalized Locator key, `/`-separated) appended to it is the file's path on POSIX. */
const prefix = root.endsWith(sep) ? root : `${root}${sep}`;
/** This worker's term ids, for its whole life (batches are built one after another, in message order). */
const dictionary = new TermDictionary();

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

function handle(request: ReadRequest): void {
  const builder = new BatchBuilder(dictionary);
  for (const item of request.items) {
    const read = readOne(sep === '/' ? `${prefix}${item.key}` : join(root, ...item.key.split('/')));
    if (read === 'missing') builder.addMissing(item.key);
    else if (read === 'dir') builder.addDir(item.key);
    else builder.addText(item.key, read.text, read, layout, noteToDocument, limits, read.bytes);
  }
  const batch = builder.build();
  parentPort!.postMessage({ id: request.id, batch }, batchTransferables(batch));
}

parentPort!.on('message', (request: ReadRequest) => {
  try {
    handle(request);
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: `${(error as Error).message ?? String(error)}` });
  }
});

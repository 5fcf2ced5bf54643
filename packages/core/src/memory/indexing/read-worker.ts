/**
 * The read worker of a cold index build (worker_threads): stats and reads batches of notes of a
 * filesystem store directly (`<root>/<key>`, exactly what FsBackend.read/info do), hashes, maps them with
 * `noteToDocument` and tokenizes them, and posts back a `PreparedBatch` (its arrays transferred).
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { MemoryLayout } from '../documents/layout.js';
import { noteToDocument } from '../note-documents.js';
import { BatchBuilder } from './prepare.js';

export interface ReadWorkerData {
  readonly root: string;
  readonly layout: MemoryLayout;
}

export interface ReadRequest {
  readonly id: number;
  readonly items: readonly { readonly key: string; readonly mtimeMs: number; readonly size: number }[];
}

const { root, layout } = workerData as ReadWorkerData;
/** This worker's term ids, for its whole life (batches are built one after another, in message order). */
const dictionary = new Map<string, number>();

type Read = { text: string; mtimeMs: number; size: number } | 'missing' | 'dir';

/**
 * Opens, stats (the mtime and size recorded are those of the bytes read, taken before reading) and
 * reads one file, synchronously: this thread does nothing else meanwhile, and blocking calls cost a
 * fraction of the thread-pool round trips of their async forms.
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
    let buffer = Buffer.allocUnsafe(Math.max(st.size, 1024));
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        const grown = Buffer.allocUnsafe(buffer.length * 2);
        buffer.copy(grown, 0, 0, length);
        buffer = grown;
      }
      const n = readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return { text: buffer.toString('utf8', 0, length), mtimeMs: st.mtimeMs, size: st.size };
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
    const read = readOne(join(root, ...item.key.split('/')));
    if (read === 'missing') builder.addMissing(item.key);
    else if (read === 'dir') builder.addDir(item.key);
    else builder.addText(item.key, read.text, read, layout, noteToDocument);
  }
  const batch = builder.build();
  parentPort!.postMessage({ id: request.id, batch }, [
    batch.ids.buffer as ArrayBuffer,
    batch.tfs.buffer as ArrayBuffer,
  ]);
}

parentPort!.on('message', (request: ReadRequest) => {
  try {
    handle(request);
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: `${(error as Error).message ?? String(error)}` });
  }
});

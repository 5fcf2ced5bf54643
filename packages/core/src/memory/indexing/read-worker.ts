/**
 * The read worker of a cold index build (worker_threads): stats and reads batches of notes of a
 * filesystem store directly (`<root>/<key>`, exactly what FsBackend.read/info do), hashes, maps them with
 * `noteToDocument` and tokenizes them, and posts back a `PreparedBatch` (its arrays transferred).
 */
import { open } from 'node:fs/promises';
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

/** Reads in flight per worker. */
const CONCURRENCY = 16;

const { root, layout } = workerData as ReadWorkerData;
/** This worker's term ids, for its whole life (batches are built one after another, in message order). */
const dictionary = new Map<string, number>();

type Read = { text: string; mtimeMs: number; size: number } | 'missing' | 'dir';

/** Opens, stats (the mtime and size recorded are those of the bytes read, taken before reading) and reads one file. */
async function readOne(path: string): Promise<Read> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
    if (code === 'EISDIR') return 'dir';
    throw error;
  }
  try {
    const st = await handle.stat();
    if (st.isDirectory()) return 'dir';
    const text = (await handle.readFile()).toString('utf8');
    return { text, mtimeMs: st.mtimeMs, size: st.size };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EISDIR') return 'dir';
    throw error;
  } finally {
    await handle.close();
  }
}

async function handle(request: ReadRequest): Promise<void> {
  const reads = new Array<Read>(request.items.length);
  let next = 0;
  const reader = async () => {
    while (next < request.items.length) {
      const i = next++;
      reads[i] = await readOne(join(root, ...request.items[i]!.key.split('/')));
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, request.items.length) }, reader));
  // From here to postMessage nothing awaits: the dictionary grows batch by batch in the order they are posted.
  const builder = new BatchBuilder(dictionary);
  request.items.forEach((item, i) => {
    const read = reads[i]!;
    if (read === 'missing') builder.addMissing(item.key);
    else if (read === 'dir') builder.addDir(item.key);
    else builder.addText(item.key, read.text, read, layout, noteToDocument);
  });
  const batch = builder.build();
  parentPort!.postMessage({ id: request.id, batch }, [batch.ids.buffer as ArrayBuffer, batch.tfs.buffer as ArrayBuffer]);
}

parentPort!.on('message', (request: ReadRequest) => {
  handle(request).catch((error: unknown) => parentPort!.postMessage({ id: request.id, error: `${(error as Error).message ?? String(error)}` }));
});

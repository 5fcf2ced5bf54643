/**
 * The read worker of a cold index build (worker_threads): reads batches of notes of a filesystem
 * store directly (`<root>/<key>`, exactly what FsBackend.read does), hashes, maps them with
 * `noteToDocument` and tokenizes them, and posts back a `PreparedBatch` (its arrays transferred).
 */
import { readFile } from 'node:fs/promises';
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

async function handle(request: ReadRequest): Promise<void> {
  const builder = new BatchBuilder();
  const texts = new Array<string | undefined>(request.items.length);
  let next = 0;
  const reader = async () => {
    while (next < request.items.length) {
      const i = next++;
      try {
        texts[i] = (await readFile(join(root, ...request.items[i]!.key.split('/')))).toString('utf8');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EISDIR') throw error;
        texts[i] = undefined;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, request.items.length) }, reader));
  request.items.forEach((item, i) => {
    const text = texts[i];
    if (text === undefined) builder.addMissing(item.key);
    else builder.addText(item.key, text, item, layout, noteToDocument);
  });
  const batch = builder.build();
  parentPort!.postMessage({ id: request.id, batch }, [batch.ids.buffer as ArrayBuffer, batch.tfs.buffer as ArrayBuffer]);
}

parentPort!.on('message', (request: ReadRequest) => {
  handle(request).catch((error: unknown) => parentPort!.postMessage({ id: request.id, error: `${(error as Error).message ?? String(error)}` }));
});

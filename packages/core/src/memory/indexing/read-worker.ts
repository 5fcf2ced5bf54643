/**
 * The read worker of a cold index build (worker_threads): reads batches of notes of a filesystem store
 * (see read-batch.ts) and posts back each PreparedBatch, its arrays transferred.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readBatch, type ReadBatchData, type ReadItems } from './read-batch.js';
import { batchTransferables, TermDictionary } from './prepare.js';

export type ReadWorkerData = ReadBatchData;

export interface ReadRequest {
  readonly id: number;
  readonly items: ReadItems;
}

const data = workerData as ReadWorkerData;
/** This worker's term ids, for its whole life (batches are built one after another, in message order). */
const dictionary = new TermDictionary();

parentPort!.on('message', (request: ReadRequest) => {
  try {
    const batch = readBatch(data, request.items, dictionary);
    parentPort!.postMessage({ id: request.id, batch }, batchTransferables(batch));
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: `${(error as Error).message ?? String(error)}` });
  }
});

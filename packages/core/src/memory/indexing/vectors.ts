import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '../../write-protocol/atomic-write.js';
import { nodeCrypto } from '../../write-protocol/content-hash.js';

export const VECTORS_FILE = 'vectors.bin';
const MAGIC = Buffer.from('AGMVEC\n\0', 'latin1');

/** Characters of a document embedded (title + text), well within common embedding context windows. */
export const EMBED_CHARS = 2000;

/**
 * Embeddings keyed by document fingerprint, for one provider id: an edit that keeps the normalized
 * text keeps its vector, and a model change discards them all. Stored beside the index as
 * `vectors.bin` (header JSON, float32 data, sha256), replaced atomically.
 */
export class VectorCache {
  readonly vectors = new Map<string, Float32Array>();
  dimensions = 0;
  /**
   * The index's stamp (`MemoryIndex.stamp`) when an embedding run left nothing pending: while the index
   * has not changed since, there is nothing to embed (an answer tells without looking at every document).
   */
  completeFor: string | undefined;
  #dirty = false;

  constructor(readonly providerId: string) {}

  get(fingerprint: string): Float32Array | undefined {
    return this.vectors.get(fingerprint);
  }

  set(fingerprint: string, vector: Float32Array): void {
    if (this.dimensions === 0) this.dimensions = vector.length;
    this.vectors.set(fingerprint, vector);
    this.completeFor = undefined;
    this.#dirty = true;
  }

  /** Keeps only these fingerprints (documents deleted since are dropped). */
  retain(fingerprints: ReadonlySet<string>): void {
    for (const fp of this.vectors.keys()) {
      if (fingerprints.has(fp)) continue;
      this.vectors.delete(fp);
      this.#dirty = true;
    }
  }

  /** Loads the cache of `dir`; empty when absent, corrupt or made by another provider. */
  static async load(dir: string, providerId: string): Promise<VectorCache> {
    const cache = new VectorCache(providerId);
    let bytes: Buffer;
    try {
      bytes = await readFile(join(dir, VECTORS_FILE));
    } catch {
      return cache;
    }
    try {
      const payload = bytes.subarray(0, bytes.length - 32);
      if (
        !bytes.subarray(0, MAGIC.length).equals(MAGIC) ||
        !nodeCrypto()
          .createHash('sha256')
          .update(payload)
          .digest()
          .equals(bytes.subarray(bytes.length - 32))
      )
        return cache;
      const headerLength = bytes.readUInt32LE(MAGIC.length);
      const header = JSON.parse(
        payload.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength).toString('utf8'),
      ) as { provider: string; dim: number; fps: string[]; complete?: string };
      if (header.provider !== providerId) return cache;
      const start = MAGIC.length + 4 + headerLength;
      // One copy of the floats (aligned), each vector a view into it.
      const floats = new Float32Array(
        payload.buffer.slice(payload.byteOffset + start, payload.byteOffset + payload.length),
      );
      header.fps.forEach((fp, i) => cache.vectors.set(fp, floats.subarray(i * header.dim, (i + 1) * header.dim)));
      cache.dimensions = header.dim;
      cache.completeFor = typeof header.complete === 'string' ? header.complete : undefined;
    } catch {
      cache.vectors.clear();
    }
    return cache;
  }

  /** Marks the cache complete for the index's `stamp` (saved with the next `save`). */
  markComplete(stamp: string | undefined): void {
    if (this.completeFor === stamp) return;
    this.completeFor = stamp;
    this.#dirty = true;
  }

  async save(dir: string): Promise<void> {
    if (!this.#dirty) return;
    const fps = [...this.vectors.keys()];
    const header = Buffer.from(
      JSON.stringify({ provider: this.providerId, dim: this.dimensions, fps, complete: this.completeFor }),
      'utf8',
    );
    const data = new Float32Array(fps.length * this.dimensions);
    fps.forEach((fp, i) => data.set(this.vectors.get(fp)!, i * this.dimensions));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(header.length, 0);
    const payload = Buffer.concat([MAGIC, len, header, Buffer.from(data.buffer)]);
    await atomicWrite(
      join(dir, VECTORS_FILE),
      Buffer.concat([payload, nodeCrypto().createHash('sha256').update(payload).digest()]),
      { fsync: false },
    );
    this.#dirty = false;
  }
}

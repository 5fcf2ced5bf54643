import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { atomicWrite } from '../../write-protocol/atomic-write.js';
import { ProviderError } from '../../providers/errors.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';

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
  #dirty = false;

  constructor(readonly providerId: string) {}

  get(fingerprint: string): Float32Array | undefined {
    return this.vectors.get(fingerprint);
  }

  set(fingerprint: string, vector: Float32Array): void {
    if (this.dimensions === 0) this.dimensions = vector.length;
    this.vectors.set(fingerprint, vector);
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
        !createHash('sha256')
          .update(payload)
          .digest()
          .equals(bytes.subarray(bytes.length - 32))
      )
        return cache;
      const headerLength = bytes.readUInt32LE(MAGIC.length);
      const header = JSON.parse(
        payload.subarray(MAGIC.length + 4, MAGIC.length + 4 + headerLength).toString('utf8'),
      ) as { provider: string; dim: number; fps: string[] };
      if (header.provider !== providerId) return cache;
      const start = MAGIC.length + 4 + headerLength;
      const floats = new Float32Array(
        payload.buffer.slice(payload.byteOffset + start, payload.byteOffset + payload.length),
      );
      header.fps.forEach((fp, i) => cache.vectors.set(fp, floats.slice(i * header.dim, (i + 1) * header.dim)));
      cache.dimensions = header.dim;
    } catch {
      cache.vectors.clear();
    }
    return cache;
  }

  async save(dir: string): Promise<void> {
    if (!this.#dirty) return;
    const fps = [...this.vectors.keys()];
    const header = Buffer.from(JSON.stringify({ provider: this.providerId, dim: this.dimensions, fps }), 'utf8');
    const data = new Float32Array(fps.length * this.dimensions);
    fps.forEach((fp, i) => data.set(this.vectors.get(fp)!, i * this.dimensions));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(header.length, 0);
    const payload = Buffer.concat([MAGIC, len, header, Buffer.from(data.buffer)]);
    await atomicWrite(
      join(dir, VECTORS_FILE),
      Buffer.concat([payload, createHash('sha256').update(payload).digest()]),
      { fsync: false },
    );
    this.#dirty = false;
  }

  /**
   * Embeds the documents whose fingerprint has no vector yet, in batches. A provider failure stops
   * the embedding and is returned as a warning: the documents stay lexical-only until a later try.
   */
  async embedMissing(
    docs: readonly { fingerprint: string; title: string; text: string }[],
    provider: EmbeddingProvider,
    batchSize = 64,
  ): Promise<string[]> {
    const todo = new Map<string, string>();
    for (const d of docs)
      if (!this.vectors.has(d.fingerprint)) todo.set(d.fingerprint, `${d.title}\n${d.text}`.slice(0, EMBED_CHARS));
    const entries = [...todo];
    for (let i = 0; i < entries.length; i += batchSize) {
      const batch = entries.slice(i, i + batchSize);
      try {
        const vectors = await provider.embed(batch.map(([, text]) => text));
        if (this.dimensions !== 0 && vectors.some((v) => v.length !== this.dimensions)) {
          return [
            `embeddings from ${provider.id} changed dimension (${vectors[0]?.length} vs ${this.dimensions}); run \`agentm reindex --full\``,
          ];
        }
        batch.forEach(([fp], j) => this.set(fp, vectors[j]!));
      } catch (error) {
        if (error instanceof ProviderError)
          return [`${error.message} — ${entries.length - i} document(s) stay lexical-only until the next refresh`];
        throw error;
      }
    }
    return [];
  }
}

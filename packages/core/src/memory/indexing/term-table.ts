/**
 * The index's term dictionary: term ↔ id. Terms of a loaded snapshot stay in the snapshot's bytes (a
 * UTF-8 blob, offsets and an open-addressing hash table written with it), so opening an index decodes
 * none of them: a query hashes its few terms and compares bytes. Terms added since (an update, a build)
 * live in a Map beside them, with ids after the snapshot's.
 */

/** FNV-1a over the UTF-16 code units of `term`: the hash of the snapshot's term table. */
export function termHash(term: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The snapshot part of a term table (see `TermTable.frozen`). */
export interface FrozenTerms {
  /** UTF-8 bytes of every term, back to back. */
  readonly blob: Uint8Array;
  /** `offsets[id]..offsets[id + 1]` are term `id`'s bytes. */
  readonly offsets: Uint32Array;
  /** Power-of-two slots holding `id + 1` (0 = empty), probed linearly from `termHash & (length − 1)`. */
  readonly table: Int32Array;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export class TermTable {
  readonly #frozen: FrozenTerms | undefined;
  readonly #frozenCount: number;
  readonly #ids = new Map<string, number>();
  readonly #added: string[] = [];

  constructor(frozen?: FrozenTerms) {
    this.#frozen = frozen;
    this.#frozenCount = frozen ? frozen.offsets.length - 1 : 0;
  }

  /** Number of terms (ids are `0..size − 1`). */
  get size(): number {
    return this.#frozenCount + this.#added.length;
  }

  /** The snapshot terms when no term was added since, else undefined. */
  frozen(): FrozenTerms | undefined {
    return this.#added.length === 0 ? this.#frozen : undefined;
  }

  /** The id of `term`, or −1. */
  id(term: string): number {
    const added = this.#ids.get(term);
    if (added !== undefined) return added;
    return this.#frozen ? this.#frozenId(term) : -1;
  }

  /** The id of `term`, adding it when new. */
  intern(term: string): number {
    let id = this.id(term);
    if (id < 0) {
      id = this.size;
      this.#ids.set(term, id);
      this.#added.push(term);
    }
    return id;
  }

  /** The term of an id. */
  term(id: number): string {
    if (id >= this.#frozenCount) return this.#added[id - this.#frozenCount]!;
    const f = this.#frozen!;
    return decoder.decode(f.blob.subarray(f.offsets[id]!, f.offsets[id + 1]!));
  }

  #frozenId(term: string): number {
    const f = this.#frozen!;
    const mask = f.table.length - 1;
    const bytes = encoder.encode(term);
    for (let at = termHash(term) & mask; ; at = (at + 1) & mask) {
      const slot = f.table[at]!;
      if (slot === 0) return -1;
      const id = slot - 1;
      const start = f.offsets[id]!;
      if (f.offsets[id + 1]! - start === bytes.length && sameBytes(f.blob, start, bytes)) return id;
    }
  }
}

function sameBytes(blob: Uint8Array, start: number, bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (blob[start + i] !== bytes[i]) return false;
  return true;
}

/** The frozen form of `terms` (ids in order): what a snapshot stores. */
export function freezeTerms(terms: readonly string[]): FrozenTerms {
  const encoded = terms.map((t) => encoder.encode(t));
  const offsets = new Uint32Array(terms.length + 1);
  for (let i = 0; i < encoded.length; i++) offsets[i + 1] = offsets[i]! + encoded[i]!.length;
  const blob = new Uint8Array(offsets[terms.length]!);
  encoded.forEach((bytes, i) => blob.set(bytes, offsets[i]!));
  let size = 16;
  while (size < terms.length * 2) size *= 2;
  const table = new Int32Array(size);
  const mask = size - 1;
  terms.forEach((term, id) => {
    let at = termHash(term) & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = id + 1;
  });
  return { blob, offsets, table };
}

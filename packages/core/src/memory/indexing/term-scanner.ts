import { STOP_WORD_MAX, STOP_WORDS, stem, tokenize, wordTerms } from './tokenize.js';

/**
 * Turns text into term ids exactly as `tokenize` would turn it into terms, several times faster on the
 * text notes are made of: ASCII words are recognised in place — no lower-cased copy of the text, no
 * regular expression, no string per word — and looked up in a cache of the surface forms seen before
 * (`Locks` → the id of `lock`; a stop word → −1); a word with an upper-case letter after its first is
 * looked up by its exact form, since a camel-case identifier yields its words too (`userId` → userid,
 * user, id). A run of text holding any non-ASCII character is
 * handed to `tokenize` itself. Splitting at ASCII whitespace first is what makes that exact: no case
 * mapping (Greek final sigma included) or Unicode normalization looks across an ASCII space.
 *
 * Why: tokenizing was the largest cost of a cold build (a regex match, a lower-cased copy and a fresh
 * string hashed into a Map for each of ≈ 18 M words per 100 000 notes).
 */
export class TermScanner {
  /** Open addressing over surface forms: hash, length and chars compared; `ids` holds term id or −1. */
  #hashes = new Int32Array(1 << 12);
  #ids = new Int32Array(1 << 12);
  #surfaces: (string | undefined)[] = new Array<string | undefined>(1 << 12);
  #used = 0;
  readonly #pending: number[] = [];
  /** Exact surface of a word with an inner capital → the term ids it yields (a camel-case identifier's words). */
  readonly #capitals = new Map<string, readonly number[]>();

  /** `intern(term)` gives a term's id (adding it to the caller's dictionary when new). */
  constructor(private readonly intern: (term: string) => number) {}

  /**
   * Calls `emit(id)` for each term of `text.slice(from, to)`, in order; returns how many it emitted.
   * (Scanning a range of a file's text rather than a slice of it spares V8's sliced-string reads.)
   */
  scan(text: string, emit: (id: number) => void, from = 0, to = text.length): number {
    let emitted = 0;
    const n = to;
    // One pass. The words of a run (text between ASCII spaces) are looked up as they are found and
    // held until the run ends; a run that turns out to hold a non-ASCII character is tokenized again,
    // the slow exact way, instead.
    const pending = this.#pending;
    let np = 0;
    let runStart = from;
    let ascii = true;
    let i = from;
    while (i <= n) {
      const c = i < n ? text.charCodeAt(i) : 32;
      const cls = c < 128 ? CLASS[c]! : NON_ASCII;
      if (cls === ALNUM) {
        // A word: hash its lower-cased letters until the next non-alphanumeric character.
        const start = i;
        // FNV-1a kept within 30 bits: a small integer throughout, so the optimized code never has to
        // box it (a hash outside that range deoptimized this loop over and over).
        let h = Math.imul(0x811c9dc5 ^ WORD[c]!, 0x01000193) & 0x3fffffff;
        // Non-zero when a letter after the first is upper-case (its lower-case code differs): no branch.
        let capital = 0;
        while (++i < n) {
          const d = text.charCodeAt(i);
          const l = d < 128 ? WORD[d]! : 0;
          if (l === 0) break;
          capital |= l ^ d;
          h = Math.imul(h ^ l, 0x01000193) & 0x3fffffff;
        }
        const length = i - start;
        if (ascii && length >= 2 && length <= MAX_TOKEN) {
          if (capital !== 0) {
            for (const id of this.#capitalIds(text.slice(start, i))) pending[np++] = id;
            continue;
          }
          const id = this.#lookup(text, start, length, h);
          if (id >= 0) pending[np++] = id;
        }
        continue;
      }
      if (cls === NON_ASCII) ascii = false;
      else if (cls === SPACE) {
        if (ascii) {
          for (let k = 0; k < np; k++) emit(pending[k]!);
          emitted += np;
        } else {
          for (const term of tokenize(text.slice(runStart, i))) {
            emit(this.intern(term));
            emitted++;
          }
        }
        np = 0;
        ascii = true;
        runStart = i + 1;
      }
      i++;
    }
    return emitted;
  }

  /** The ids of a word with an inner capital: a camel-case identifier's own term and its words' (see wordTerms). */
  #capitalIds(word: string): readonly number[] {
    let ids = this.#capitals.get(word);
    if (ids === undefined) {
      ids = wordTerms(word).map((term) => this.intern(term));
      this.#capitals.set(word, ids);
    }
    return ids;
  }

  #lookup(text: string, from: number, length: number, hash: number): number {
    const mask = this.#hashes.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const surface = this.#surfaces[at];
      if (surface === undefined) return this.#add(text.slice(from, from + length).toLowerCase(), hash, at);
      if (this.#hashes[at] === hash && surface.length === length && sameWord(surface, text, from))
        return this.#ids[at]!;
    }
  }

  #add(word: string, hash: number, at: number): number {
    const id = word.length <= STOP_WORD_MAX && STOP_WORDS.has(word) ? -1 : this.intern(stem(word));
    this.#surfaces[at] = word;
    this.#hashes[at] = hash;
    this.#ids[at] = id;
    if (++this.#used * 2 > this.#hashes.length) this.#grow();
    return id;
  }

  #grow(): void {
    const surfaces = this.#surfaces;
    const hashes = this.#hashes;
    const ids = this.#ids;
    const size = hashes.length * 2;
    this.#surfaces = new Array<string | undefined>(size);
    this.#hashes = new Int32Array(size);
    this.#ids = new Int32Array(size);
    const mask = size - 1;
    for (let k = 0; k < surfaces.length; k++) {
      if (surfaces[k] === undefined) continue;
      let at = hashes[k]! & mask;
      while (this.#surfaces[at] !== undefined) at = (at + 1) & mask;
      this.#surfaces[at] = surfaces[k];
      this.#hashes[at] = hashes[k]!;
      this.#ids[at] = ids[k]!;
    }
  }
}

const MAX_TOKEN = 40;

const SPACE = 1;
const ALNUM = 2;
const NON_ASCII = 3;
/** ASCII character classes: SPACE (the only characters a run is split at), ALNUM, or 0 (a separator). */
const CLASS = new Uint8Array(128);
/** The lower-case code of an ASCII letter or digit; 0 for any other ASCII character. */
const WORD = new Uint8Array(128);
for (const c of [9, 10, 11, 12, 13, 32]) CLASS[c] = SPACE;
for (let c = 48; c <= 57; c++) {
  CLASS[c] = ALNUM;
  WORD[c] = c;
}
for (let c = 97; c <= 122; c++) {
  CLASS[c] = ALNUM;
  WORD[c] = c;
}
for (let c = 65; c <= 90; c++) {
  CLASS[c] = ALNUM;
  WORD[c] = c | 32;
}

function sameWord(surface: string, text: string, from: number): boolean {
  for (let k = 0; k < surface.length; k++) if (surface.charCodeAt(k) !== WORD[text.charCodeAt(from + k)]) return false;
  return true;
}

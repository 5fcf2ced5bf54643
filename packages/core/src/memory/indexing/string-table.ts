/**
 * Strings kept as a snapshot keeps them — UTF-8 bytes back to back, offsets, and an open-addressing
 * hash table of `index + 1` — so that finding one decodes none of the others. Used for the term
 * dictionary and the file keys: opening an index builds no Map of either.
 */

import { pageIn } from './snapshot-pages.js';

/** The bytes of strings 0..n−1 and where each starts (`offsets[i]..offsets[i + 1]`). */
export interface PackedStrings {
  readonly blob: Uint8Array;
  readonly offsets: Uint32Array;
}

/** FNV-1a over the UTF-16 code units of `text`: the hash the tables are built and probed with. */
export function stringHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const encoder = new TextEncoder();
let scratch = new Uint8Array(256);

/**
 * The hash table of `strings` (string i stored as i + 1; 0 is empty): a power of two at least twice
 * their number, probed linearly.
 */
export function hashTable(strings: ArrayLike<string>): Int32Array {
  let size = 16;
  while (size < strings.length * 2) size *= 2;
  const table = new Int32Array(size);
  const mask = size - 1;
  for (let i = 0; i < strings.length; i++) {
    let at = stringHash(strings[i]!) & mask;
    while (table[at] !== 0) at = (at + 1) & mask;
    table[at] = i + 1;
  }
  return table;
}

/** The index of `text` among packed strings through their table, or −1. */
export function lookup(packed: PackedStrings, table: Int32Array, text: string): number {
  const mask = table.length - 1;
  // Encoded into one buffer reused across lookups: a walk of 100 000 notes looks up every file's key.
  if (scratch.length < text.length * 3) scratch = new Uint8Array(text.length * 3 + 64);
  const bytes = scratch.subarray(0, encoder.encodeInto(text, scratch).written);
  const { blob, offsets } = packed;
  for (let at = stringHash(text) & mask; ; at = (at + 1) & mask) {
    pageIn(table, at, at + 1);
    const entry = table[at]!;
    if (entry === 0) return -1;
    const i = entry - 1;
    pageIn(offsets, i, i + 2);
    const start = offsets[i]!;
    if (offsets[i + 1]! - start !== bytes.length) continue;
    pageIn(blob, start, start + bytes.length);
    if (sameBytes(blob, start, bytes)) return i;
  }
}

function sameBytes(blob: Uint8Array, start: number, bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (blob[start + i] !== bytes[i]) return false;
  return true;
}

/** Packs strings as UTF-8 bytes with offsets. */
export function packStrings(strings: readonly string[]): PackedStrings {
  const offsets = new Uint32Array(strings.length + 1);
  let total = 0;
  for (let i = 0; i < strings.length; i++) offsets[i + 1] = total += Buffer.byteLength(strings[i]!, 'utf8');
  const blob = Buffer.allocUnsafe(total);
  for (let i = 0; i < strings.length; i++) blob.write(strings[i]!, offsets[i]!, 'utf8');
  return { blob, offsets };
}

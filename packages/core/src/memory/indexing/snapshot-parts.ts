import type { PackedRows } from './columns.js';
import type { FrozenDocs } from './doc-store.js';
import type { FrozenFiles } from './file-table.js';
import type { IndexState } from './index-state.js';
import { pageInBlock, type PostingBlock } from './postings.js';
import { hashTable } from './string-table.js';
import { freezeTerms, type FrozenTerms } from './term-table.js';

/**
 * A state's content with dead slots, replaced files and unused terms left out, slots renumbered;
 * the records and file keys as rows to encode while writing.
 */
export interface CompactParts {
  readonly docs: Omit<FrozenDocs, 'records'> & { readonly records: PackedRows };
  readonly lengths: Uint32Array;
  readonly files: Omit<FrozenFiles, 'keys'> & { readonly keys: PackedRows };
  readonly terms: FrozenTerms;
  readonly block: PostingBlock;
}

/**
 * The arrays a snapshot is written from. A state with nothing removed or appended since it was built
 * or loaded is written from its own arrays (views, no copies); otherwise live entries are gathered.
 */
export function compactParts(state: IndexState): CompactParts {
  // Whole, and the file it was loaded from let go: the snapshot written from these parts replaces it.
  state.readAll();
  const bm25 = state.bm25;
  const n = bm25.liveCount;
  const dense = bm25.deadCount === 0;
  const liveSlots = dense ? undefined : Int32Array.from(state.liveSlots());
  const remap = new Int32Array(bm25.slotCount).fill(-1);
  if (liveSlots) liveSlots.forEach((slot, i) => (remap[slot] = i));
  else for (let i = 0; i < n; i++) remap[i] = i;
  const pick = <T extends Int32Array | Uint32Array | Float64Array | Uint8Array>(column: T): T => {
    if (!liveSlots) return column.subarray(0, n) as T;
    const out = new (column.constructor as { new (n: number): T })(n);
    for (let i = 0; i < n; i++) out[i] = column[liveSlots[i]!]!;
    return out;
  };
  const s = state.store;
  const docs: CompactParts['docs'] = {
    owners: s.owners.list,
    kinds: s.kinds.list,
    statuses: s.statuses.list,
    owner: pick(s.owner.data),
    kind: pick(s.kind.data),
    status: pick(s.status.data),
    // Flags change in place (a removal, a supersession): a copy, never a view.
    flags: pick(s.flags.data).slice(),
    created: pick(s.created.data),
    updated: pick(s.updated.data),
    confidence: pick(s.confidence.data),
    records: s.records.packed(liveSlots ?? identity(n)),
  };
  return {
    docs,
    lengths: pick(bm25.lengths),
    files: compactFiles(state, remap),
    ...compactPostings(state, remap),
  };
}

function compactFiles(state: IndexState, remap: Int32Array): CompactParts['files'] {
  const t = state.fileTable;
  const rows = t.liveRows();
  const m = rows.length;
  const mtime = new Float64Array(m);
  const size = new Float64Array(m);
  const hash = new Uint8Array(m * 32);
  const firstSlot = new Int32Array(m);
  const docCount = new Int32Array(m);
  rows.forEach((row, i) => {
    mtime[i] = t.mtime.data[row]!;
    size[i] = t.size.data[row]!;
    hash.set(t.hash.data.subarray(row * 32, row * 32 + 32), i * 32);
    // The run's live slots stay consecutive after renumbering (no other file's slot sits among them).
    const first = t.firstSlot.data[row]!;
    let count = 0;
    for (let slot = first; slot < first + t.docCount.data[row]!; slot++) {
      if (remap[slot]! < 0) continue;
      if (count++ === 0) firstSlot[i] = remap[slot]!;
    }
    docCount[i] = count;
  });
  const keys = Array.from(rows, (row) => t.keys.get(row)!);
  return { keys: t.keys.packed(rows), keyTable: hashTable(keys), mtime, size, hash, firstSlot, docCount };
}

function compactPostings(state: IndexState, remap: Int32Array): { terms: FrozenTerms; block: PostingBlock } {
  const bm25 = state.bm25;
  const { block, tails } = bm25.postings;
  const termCount = bm25.terms.size;
  if (bm25.deadCount === 0 && tails.size === 0 && block.start.length - 1 === termCount) {
    const frozen = bm25.terms.frozen();
    return { terms: frozen ?? freezeTerms(termList(state, termCount)), block: pageInBlock(block) };
  }
  const kept: number[] = [];
  let total = 0;
  for (let t = 0; t < termCount; t++) {
    let live = 0;
    bm25.forEachPosting(t, (slot) => {
      if (remap[slot]! >= 0) live++;
    });
    if (live === 0) continue;
    kept.push(t);
    total += live;
  }
  const start = new Int32Array(kept.length + 1);
  const slots = new Int32Array(total);
  const tfs = new Uint16Array(total);
  let at = 0;
  kept.forEach((t, i) => {
    bm25.forEachPosting(t, (slot, tf) => {
      const to = remap[slot]!;
      if (to < 0) return;
      slots[at] = to;
      tfs[at++] = tf;
    });
    start[i + 1] = at;
  });
  return { terms: freezeTerms(kept.map((t) => bm25.terms.term(t))), block: { start, slots, tfs } };
}

function termList(state: IndexState, count: number): string[] {
  return Array.from({ length: count }, (_, t) => state.bm25.terms.term(t));
}

function identity(n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

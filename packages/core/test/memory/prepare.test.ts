import { describe, expect, it } from 'vitest';
import { Locator } from '../../src/seam/locator.js';
import { DEFAULT_LAYOUT, classifySource } from '../../src/memory/documents/layout.js';
import { noteToDocument } from '../../src/memory/note-documents.js';
import { documentsOf } from '../../src/memory/documents/source-documents.js';
import { IndexState } from '../../src/memory/indexing/index-state.js';
import {
  BatchBuilder,
  FILE_MISSING,
  FILE_OK,
  TermDictionary,
  type PreparedBatch,
} from '../../src/memory/indexing/prepare.js';
import { queryTerms } from '../../src/memory/indexing/tokenize.js';

const NOTES: Record<string, string> = {
  'memory/fix/lock.md':
    '---\ntype: fix\nstatus: active\ntags: [vault]\n---\n\n# Lock timeouts\n\nThe vault lock times out; wait and retry the locks.\n',
  'desk/projects/a/convention/tests.md':
    '---\ntype: convention\n---\n\nTests use vitest and real temp dirs, never mocks of the vault.\n',
  'desk/projects/a/_harness/progress.md':
    '# Progress\n\n- 2026-01-05T10:00:00Z the lock timed out\n- 2026-01-05T11:00:00Z cleared the build cache\n',
  'memory/reference/caches.md': 'No frontmatter: caches and policies and the vault.\n',
};
const info = (key: string) => ({ mtimeMs: 1000 + key.length, size: NOTES[key]!.length });

describe('documents prepared elsewhere (the read workers’ batches)', () => {
  it('index exactly like documents tokenized on the main thread, across batches sharing one dictionary', () => {
    const direct = new IndexState();
    for (const [key, text] of Object.entries(NOTES)) {
      const locator = new Locator(key);
      direct.putFile(
        { key, ...info(key), hash: 'h' },
        documentsOf(classifySource(key), locator, text, { locator, isDir: false, ...info(key) }, noteToDocument),
      );
    }
    const pooled = new IndexState();
    pooled.beginBulk();
    const dictionary = new TermDictionary();
    const keys = Object.keys(NOTES);
    const batches: PreparedBatch[] = [keys.slice(0, 2), keys.slice(2)].map((part) => {
      const builder = new BatchBuilder(dictionary);
      for (const key of part) builder.addText(key, NOTES[key]!, info(key), DEFAULT_LAYOUT, noteToDocument);
      return builder.build();
    });
    expect(batches[1]!.termBase).toBe(batches[0]!.newTerms.length);
    let map = new Int32Array(0);
    for (const batch of batches) {
      const grown = new Int32Array(batch.termBase + batch.newTerms.length);
      grown.set(map);
      map = grown;
      batch.newTerms.forEach((t, i) => (map[batch.termBase + i] = pooled.bm25.internTerm(t)));
      const { files, docs } = batch;
      files.keys.forEach((key, f) => {
        if (files.status[f] !== FILE_OK) return;
        const from = f > 0 ? files.docEnd[f - 1]! : 0;
        pooled.putColumns({ key, ...info(key), hash: 'h' }, docs, from, files.docEnd[f]!, (d) =>
          pooled.bm25.addRuns(
            docs.lengths[d]!,
            batch.ids,
            batch.tfs,
            d > 0 ? docs.runEnd[d - 1]! : 0,
            docs.runEnd[d]!,
            map,
          ),
        );
      });
    }
    pooled.endBulk();
    const docs = (s: IndexState) => [...s.docs.values()].sort((a, b) => a.id.localeCompare(b.id));
    expect(docs(pooled)).toEqual(docs(direct));
    for (const q of ['vault lock', 'caches policy', 'build cache', 'tests vitest', 'timed out']) {
      const scores = (s: IndexState) => {
        const m = s.bm25.search(queryTerms(q));
        return Array.from(
          { length: m.count },
          (_, i) => `${s.doc(m.slots[i]!)!.id} ${m.scores[i]!.toFixed(12)}`,
        ).sort();
      };
      expect(scores(pooled), q).toEqual(scores(direct));
    }
  });

  it('reports a file that vanished, and a mapper that throws, without losing the batch', () => {
    const builder = new BatchBuilder();
    builder.addMissing('memory/fix/gone.md');
    builder.addText('memory/fix/bad.md', 'x', { mtimeMs: 1, size: 1 }, DEFAULT_LAYOUT, () => {
      throw new Error('unreadable note');
    });
    const { files } = builder.build();
    expect(files.keys).toEqual(['memory/fix/gone.md', 'memory/fix/bad.md']);
    expect([...files.status]).toEqual([FILE_MISSING, FILE_OK]);
    expect([...files.docEnd]).toEqual([0, 0]);
    expect(files.errors).toEqual({ 1: 'unreadable note' });
  });
});

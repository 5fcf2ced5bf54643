import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { testDatabase, type TestDatabase } from '../../../../test/helpers/postgres.js';
import { PostgresBackend } from '../../src/backends/postgres/postgres-backend.js';
import type { Locator } from '../../src/seam/locator.js';
import { MemoryIndex } from '../../src/memory/indexing/memory-index.js';
import { recall } from '../../src/memory/recall/recall.js';
import { note, testToDocument } from './helpers.js';

// The memory index of a database store stays on this device (the user cache dir, keyed by the store's
// id) and follows the store's change cursor: a refresh reads what changed since, never walks the store.

let db: TestDatabase;
const opened: PostgresBackend[] = [];
beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
});

/** A postgres store that counts what the index asks of it. */
class Counting extends PostgresBackend {
  lists = 0;
  reads: string[] = [];
  override list(locator: Locator) {
    this.lists++;
    return super.list(locator);
  }
  override read(locator: Locator) {
    this.reads.push(locator.key);
    return super.read(locator);
  }
}

async function setUp() {
  const schema = db.freshSchema();
  const cache = await tempDir();
  const make = () => {
    const backend = new Counting({ url: db.url, schema, env: db.env });
    opened.push(backend);
    return backend;
  };
  const writer = make(); // another machine, as far as the index can tell
  const openIndex = async () => {
    const backend = make();
    const index = await MemoryIndex.open({
      backend,
      toDocument: testToDocument,
      indexRoot: join(cache, 'index'),
      lockRoot: join(cache, 'locks'),
    });
    return { backend, index };
  };
  return { cache, writer, openIndex };
}

const top = async (index: MemoryIndex, query: string) => (await recall(index, { text: query, k: 3 })).items[0]?.locator;

describe('the memory index of a postgres store', () => {
  it('is device-local, keyed by the store id, and refreshed from the cursor without walking', async () => {
    const { cache, writer, openIndex } = await setUp();
    for (let i = 0; i < 30; i++)
      await writer.write(writer.resolve('memory', 'fix', `n${i}.md`), note(`filler note number ${i} about nothing`));
    const { backend, index } = await openIndex();
    expect(index.dir.startsWith(join(cache, 'index'))).toBe(true);
    expect(index.root).toBe(backend.storeId);
    const built = await index.refresh();
    expect(built.rebuilt).toBe('missing');
    expect(built.documents).toBe(30);
    expect(backend.lists).toBe(0); // one listing query, no walk
    expect(existsSync(join(index.dir, 'cursor.json'))).toBe(true);

    await writer.write(writer.resolve('memory', 'fix', 'lock.md'), note('the vault lock times out under load'));
    backend.reads = [];
    const one = await index.refresh();
    expect(one).toMatchObject({ rebuilt: undefined, read: 1, indexed: 1, documents: 31 });
    expect(backend.reads).toEqual(['memory/fix/lock.md']);
    expect(backend.lists).toBe(0);
    expect(await top(index, 'vault lock times out')).toBe('memory/fix/lock.md');

    await writer.remove(writer.resolve('memory', 'fix', 'lock.md'));
    const gone = await index.refresh();
    expect(gone).toMatchObject({ removed: 1, documents: 30 });
    expect(await top(index, 'vault lock times out')).not.toBe('memory/fix/lock.md');
  });

  it('a second process opening the same index continues from the saved cursor', async () => {
    const { writer, openIndex } = await setUp();
    await writer.write(writer.resolve('memory', 'fix', 'a.md'), note('alpha note'));
    const first = await openIndex();
    await first.index.refresh();
    await writer.write(writer.resolve('memory', 'fix', 'b.md'), note('beta note'));
    const second = await openIndex();
    const report = await second.index.refresh();
    expect(report).toMatchObject({ rebuilt: undefined, read: 1, documents: 2 });
    expect(second.backend.reads).toEqual(['memory/fix/b.md']);
  });
});

import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance, UNIVERSAL_CHECKS } from '../../src/backends/conformance.js';
import { PostgresBackend, type PostgresBackendOptions } from '../../src/backends/postgres/postgres-backend.js';
import { NotFoundError } from '../../src/seam/errors.js';
import { ConcurrentModificationError } from '../../src/write-protocol/errors.js';
import { contentHash } from '../../src/write-protocol/content-hash.js';
import { BackendRegistry } from '../../src/seam/registry.js';
import { builtinBackends } from '../../src/backends/builtins.js';
import { testDatabase, type TestDatabase } from '../../../../test/helpers/postgres.js';

let db: TestDatabase;
const opened: PostgresBackend[] = [];

beforeAll(async () => {
  db = await testDatabase();
});
afterAll(async () => {
  await Promise.all(opened.map((b) => b.close()));
});

/** A backend on a schema of its own (a fresh, empty store), closed after the file. */
function store(options: Partial<PostgresBackendOptions> = {}): PostgresBackend {
  const backend = new PostgresBackend({ url: db.url, schema: db.freshSchema(), env: db.env, ...options });
  opened.push(backend);
  return backend;
}

describe('postgres backend conformance', () => {
  it.each(UNIVERSAL_CHECKS.map((c) => [c.name, c] as const))('%s', async (_check, c) => {
    await c.run(() => store());
  });

  it('passes runConformance as a whole, and the registry routes postgres to it', async () => {
    const report = await runConformance(() => store());
    expect(report.universal).toEqual(UNIVERSAL_CHECKS.map((c) => c.name));
    expect(builtinBackends().get('postgres')).toBe(PostgresBackend);
    expect(new BackendRegistry().get('postgres')).toBeUndefined();
  });
});

describe('postgres backend rows', () => {
  it('keeps each file as a row: key, bytes, sha256, size, when and by whom', async () => {
    const b = store();
    const text = 'café 🦗\r\nline\n';
    await b.write(b.resolve('memory', 'fix', 'a.md'), text);
    const { rows } = await db.sql<{ key: string; content: Buffer; sha256: string; size: string; updated_by: string }>(
      `SELECT key, content, sha256, size, updated_by FROM ${b.settings.schema}.entries WHERE NOT is_dir`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.key).toBe('memory/fix/a.md');
    expect(rows[0]!.content.equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(rows[0]!.sha256).toBe(contentHash(text));
    expect(Number(rows[0]!.size)).toBe(Buffer.byteLength(text));
    expect(rows[0]!.updated_by).toBe(`${process.pid}@${hostname()}`);
    expect((await b.list(b.resolve('memory'))).map((l) => l.key)).toEqual(['memory/fix']);
  });

  it('a removed file is gone for every verb, can be written again, and only goes when its hash still matches', async () => {
    const b = store();
    const loc = b.resolve('notes', 'x.md');
    await b.write(loc, 'one\n');
    await expect(b.remove(loc, { expectHash: contentHash('other\n') })).rejects.toBeInstanceOf(
      ConcurrentModificationError,
    );
    await b.remove(loc, { expectHash: contentHash('one\n') });
    expect(await b.exists(loc)).toBe(false);
    await expect(b.read(loc)).rejects.toBeInstanceOf(NotFoundError);
    expect(await b.list(b.resolve('notes'))).toEqual([]);
    await expect(b.remove(loc)).rejects.toBeInstanceOf(NotFoundError);
    await b.write(loc, 'two\n', { expectHash: null });
    expect(await b.read(loc)).toBe('two\n');
  });

  it('refuses to write through a file or onto a folder, and refuses to remove a folder', async () => {
    const b = store();
    await b.write(b.resolve('a.md'), 'file\n');
    await expect(b.write(b.resolve('a.md', 'b.md'), 'x\n')).rejects.toThrow(/a file is in the way/);
    await b.mkdir(b.resolve('dir'));
    await expect(b.write(b.resolve('dir'), 'x\n')).rejects.toThrow(/directory/);
    await expect(b.remove(b.resolve('dir'))).rejects.toThrow(/only files are removed/);
    await expect(b.mkdir(b.resolve('a.md', 'sub'))).rejects.toThrow(/a file is in the way/);
  });

  it('withLock is one transaction: a failure inside leaves nothing of it behind', async () => {
    const b = store();
    await expect(
      b.withLock(async () => {
        await b.write(b.resolve('one.md'), '1\n');
        await b.write(b.resolve('two.md'), '2\n');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await b.exists(b.resolve('one.md'))).toBe(false);
    expect(await b.list(b.resolve())).toEqual([]);
    await b.withLock(async () => {
      await b.write(b.resolve('one.md'), '1\n');
      await b.withLock(() => b.write(b.resolve('two.md'), '2\n'));
    });
    expect((await b.list(b.resolve())).map((l) => l.key)).toEqual(['one.md', 'two.md']);
  });

  it('a read inside withLock holds the row: a concurrent compare-and-swap waits, then loses', async () => {
    const a = store();
    const other = new PostgresBackend({ url: db.url, schema: a.settings.schema, env: db.env });
    opened.push(other);
    const loc = a.resolve('counter.md');
    await a.write(loc, '0\n');
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let readInside!: () => void;
    const didRead = new Promise<void>((r) => (readInside = r));
    const inside = a.withLock(async () => {
      const text = await a.read(loc);
      readInside();
      await held;
      await a.write(loc, `${Number(text) + 1}\n`, { expectHash: contentHash(text) });
    });
    await didRead;
    const outside = other.write(loc, '100\n', { expectHash: contentHash('0\n') });
    const raced = await Promise.race([
      outside.then(
        () => 'landed',
        () => 'refused',
      ),
      Promise.resolve('waiting'),
    ]);
    expect(raced).toBe('waiting');
    release();
    await inside;
    await expect(outside).rejects.toBeInstanceOf(ConcurrentModificationError);
    expect(await other.read(loc)).toBe('1\n');
  });

  it('withLock read-modify-writes never both create a file they both found absent', async () => {
    const a = store();
    const others = [
      a,
      ...Array.from({ length: 5 }, () => new PostgresBackend({ url: db.url, schema: a.settings.schema, env: db.env })),
    ];
    opened.push(...others.slice(1));
    const counter = a.resolve('counter.md');
    const increment = (b: PostgresBackend) =>
      b.withLock(async () => {
        const text = await b.read(counter).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        });
        const value = text === undefined ? 0 : Number(text);
        await b.write(counter, `${value + 1}\n`, { expectHash: text === undefined ? null : contentHash(text) });
      });
    await Promise.all(others.flatMap((b) => [increment(b), increment(b)]));
    expect(await a.read(counter)).toBe('12\n');
  });

  it('names the store without a password, and says it is shared and lock-free', async () => {
    const b = store();
    expect(b.storeId).toBe(`${db.url}?schema=${b.settings.schema}`);
    expect(b.localRoot).toBeUndefined();
    expect(b.capabilities).toEqual({ concurrentWriters: true, conflictFiles: false, encryption: false, sync: true });
  });
});

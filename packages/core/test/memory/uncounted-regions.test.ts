// A process that answers and exits (a hook, `agentm recall`: `verify: 'structure'`) opens the index
// snapshot without V8 counting the sections' whole region as memory in use (`SnapshotFile`): V8 would
// otherwise run a full collection in an answer that holds a few megabytes of objects. Same answers.
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { EPISODE_KIND, type IndexDocument } from '../../src/memory/documents/document.js';
import { decodeSnapshot, encodeSnapshot, openSnapshot } from '../../src/memory/indexing/codec.js';
import { IndexState } from '../../src/memory/indexing/index-state.js';
import { SNAPSHOT_FILE } from '../../src/memory/indexing/index-store.js';
import { MemoryIndex } from '../../src/memory/indexing/memory-index.js';
import { recall } from '../../src/memory/recall/recall.js';
import { note, testToDocument } from './helpers.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const WORDS = ['lock', 'vault', 'sync', 'note', 'recall', 'index', 'cache', 'merge', 'heartbeat', 'rename'];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentm-uncounted-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function doc(i: number): IndexDocument {
  const id = `memory/fix/n${i}.md`;
  const words = Array.from({ length: 8 }, (_, j) => WORDS[(i * 7 + j * j) % WORDS.length]!);
  return {
    id: i % 5 === 0 ? `${id}#e${i}` : id,
    locator: id,
    owner: '',
    kind: i % 5 === 0 ? EPISODE_KIND : 'fix',
    status: 'active',
    tags: [],
    alwaysLoad: false,
    createdMs: NOW - (i % 90) * 86_400_000,
    updatedMs: NOW - (i % 90) * 86_400_000,
    title: `n${i} ${WORDS[i % WORDS.length]!} term${i % 997}`,
    untitled: false,
    text: `${words.join(' ')} term${i % 997} word${i}`,
    fingerprint: `f${i}`,
    derivedFrom: [],
  };
}

/**
 * The SharedArrayBuffers made while `open` runs, by size: V8 does not count their memory against the
 * isolate (`v8.getHeapStatistics().external_memory` leaves them out), unlike an ArrayBuffer's.
 */
async function sharedMadeBy<T>(open: () => T | Promise<T>): Promise<{ value: T; shared: number[] }> {
  const shared: number[] = [];
  const Real = SharedArrayBuffer;
  vi.stubGlobal(
    'SharedArrayBuffer',
    class extends Real {
      constructor(length: number) {
        super(length);
        shared.push(length);
      }
    },
  );
  try {
    return { value: await open(), shared };
  } finally {
    vi.unstubAllGlobals();
  }
}

const answers = async (state: IndexState) =>
  Promise.all(
    ['lock vault', 'term17 heartbeat', 'word4242', 'merge rename cache'].map(async (text) =>
      (await recall({ state }, { text, k: 5, now: NOW })).items.map((it) => `${it.id}:${it.score}`),
    ),
  );

it('opens the snapshot with its region where V8 does not count it, and answers as before', async () => {
  const state = new IndexState();
  state.beginBulk();
  for (let i = 0; i < 8000; i++) state.putFile({ key: doc(i).locator, mtimeMs: i, size: i, hash: `h${i}` }, [doc(i)]);
  state.endBulk();
  const bytes = Buffer.concat([...encodeSnapshot(state, { root: '/r', snapshotId: 's', builtMs: 1 })]);
  const path = join(dir, 'index.snap');
  await writeFile(path, bytes);
  const size = (await stat(path)).size;
  expect(size).toBeGreaterThan(1 << 20);

  const counted = await sharedMadeBy(() => openSnapshot(path, { verify: false }).state);
  expect(counted.shared).toEqual([]);
  const uncounted = await sharedMadeBy(() => openSnapshot(path, { verify: false, uncounted: true }).state);
  // One region, nearly the whole file (all but its header and checksum).
  expect(uncounted.shared).toHaveLength(1);
  expect(uncounted.shared[0]!).toBeGreaterThan(size * 0.9);

  const whole = await answers(decodeSnapshot(bytes).state);
  expect(whole.flat().length).toBeGreaterThan(0);
  expect(await answers(counted.value)).toEqual(whole);
  expect(await answers(uncounted.value)).toEqual(whole);
});

it("a short-lived answer's index (verify: 'structure') opens its snapshot uncounted; a long-lived one counts it", async () => {
  const root = join(dir, 'Agent');
  for (let i = 0; i < 1500; i++) {
    await mkdir(join(root, 'memory', 'fix'), { recursive: true });
    await writeFile(join(root, 'memory', 'fix', `n${i}.md`), note(`${doc(i).title}\n\n${doc(i).text}`));
  }
  const backend = new DeviceLocalBackend({ root, lockRoot: join(dir, 'locks') });
  const options = { backend, toDocument: testToDocument, indexRoot: join(dir, 'cache'), lockRoot: join(dir, 'locks') };
  const built = await MemoryIndex.open(options);
  await built.refresh();
  const size = (await stat(join(built.dir, SNAPSHOT_FILE))).size;
  expect(size).toBeGreaterThan(512 * 1024);

  const opened = (verify: 'full' | 'structure') => sharedMadeBy(() => MemoryIndex.open({ ...options, verify }));
  const longLived = await opened('full');
  const shortLived = await opened('structure');
  expect(longLived.shared).toEqual([]);
  expect(shortLived.shared).toHaveLength(1);
  expect(shortLived.shared[0]!).toBeGreaterThan(size * 0.9);
  expect(await answers(shortLived.value.state)).toEqual(await answers(longLived.value.state));
});

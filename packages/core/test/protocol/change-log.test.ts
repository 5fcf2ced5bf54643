import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  appendChanges,
  changeLogEnd,
  PREVIOUS_CHANGE_LOG_FILE,
  readChanges,
  type ChangeCursor,
} from '../../src/write-protocol/change-log.js';
import { tempDir } from '../../../../test/helpers/temp.js';

const NONE: ChangeCursor = { id: undefined, offset: 0 };

async function logPath(): Promise<string> {
  return join(await tempDir(), 'locks', 'abc', 'changes.log');
}

function read(path: string, cursor: ChangeCursor) {
  const got = readChanges(path, cursor);
  if (got.lost) throw new Error('lost');
  return { keys: [...got.keys].sort(), cursor: got.cursor };
}

describe('change log', () => {
  it('gives a reader the keys written since its cursor, each once, and nothing more next time', async () => {
    const path = await logPath();
    const start = changeLogEnd(path);
    expect(start).toEqual(NONE);
    expect(appendChanges(path, ['memory/fix/a.md', 'memory/fix/b.md'])).toBe(true);
    appendChanges(path, ['memory/fix/a.md']);
    const first = read(path, start);
    expect(first.keys).toEqual(['memory/fix/a.md', 'memory/fix/b.md']);
    expect(read(path, first.cursor).keys).toEqual([]);
    appendChanges(path, ['desk/projects/p/_harness/progress.md', 'memory/idée café 🦗.md']);
    const second = read(path, first.cursor);
    expect(second.keys).toEqual(['desk/projects/p/_harness/progress.md', 'memory/idée café 🦗.md']);
    expect(changeLogEnd(path)).toEqual(second.cursor);
  });

  it('reads on from the previous generation after the log grew past its limit, and loses an older cursor', async () => {
    const path = await logPath();
    appendChanges(path, ['k0'], 200);
    const early = changeLogEnd(path);
    const keys = Array.from({ length: 12 }, (_, i) => `memory/fix/note-${i}.md`);
    for (const key of keys.slice(0, 6)) appendChanges(path, [key], 200);
    expect(existsSync(join(path, '..', PREVIOUS_CHANGE_LOG_FILE))).toBe(true);
    const middle = changeLogEnd(path);
    for (const key of keys.slice(6)) appendChanges(path, [key], 200);
    // `middle` is in a generation that is now the previous one, or the current one: either way it reads on.
    expect(read(path, middle).keys).toEqual(keys.slice(6).sort());
    // `early` is two generations back: gone, the reader must walk.
    expect(readChanges(path, early).lost).toBe(true);
  });

  it('a cursor taken before there was any log reads the first log whole, and is lost once the log was replaced', async () => {
    const path = await logPath();
    appendChanges(path, ['a.md']);
    expect(read(path, NONE).keys).toEqual(['a.md']);
    const cursor = changeLogEnd(path);
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(/^AGMLOG\t\{"id":"[0-9a-f]+"/, 'AGMLOG\t{"id":"0000000000000000"'),
    );
    // The header fails its sum now: a damaged log is moved aside, and its readers walk.
    expect(readChanges(path, cursor).lost).toBe(true);
    expect(existsSync(`${path}.damaged`)).toBe(true);
    appendChanges(path, ['b.md']);
    expect(readChanges(path, cursor).lost).toBe(true);
  });

  it('skips a record torn by a crash once another follows it, and waits for a record still being written', async () => {
    const path = await logPath();
    appendChanges(path, ['a.md']);
    const cursor = changeLogEnd(path);
    appendFileSync(path, '\n"memory/fix/torn.m'); // a crash in the middle of a record
    const waiting = read(path, cursor);
    expect(waiting.keys).toEqual([]);
    expect(waiting.cursor).toEqual(cursor); // the tail may still be being written: read again next time
    appendChanges(path, ['memory/fix/after.md']);
    const after = read(path, cursor);
    expect(after.keys).toEqual(['memory/fix/after.md']);
    expect(read(path, after.cursor).keys).toEqual([]);
  });

  it('never returns a key that was not appended, whatever bytes a crash left (property)', async () => {
    const path = await logPath();
    appendChanges(path, ['seed.md']);
    const base = readFileSync(path);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.stringMatching(/^[a-z/]{1,12}\.md$/), fc.string({ maxLength: 12 })), { maxLength: 6 }),
        fc.nat({ max: 40 }),
        (keys, cut) => {
          writeFileSync(path, base);
          const cursor = changeLogEnd(path);
          appendChanges(path, keys);
          const full = readFileSync(path);
          // A crash truncated the last append somewhere.
          writeFileSync(path, full.subarray(0, Math.max(base.length, full.length - cut)));
          const got = readChanges(path, cursor);
          expect(got.lost).toBe(false);
          if (!got.lost) for (const key of got.keys) expect(keys).toContain(key);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('never throws when the log cannot be written (the write it records has landed already)', async () => {
    const path = await logPath();
    appendChanges(path, ['a.md']);
    // The log's folder path is taken by a file: nothing can be written there.
    writeFileSync(join(path, '..', '..', 'blocked'), 'not a folder');
    expect(appendChanges(join(path, '..', '..', 'blocked', 'changes.log'), ['b.md'])).toBe(false);
  });
});

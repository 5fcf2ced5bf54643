import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { changeLogEnd, PREVIOUS_CHANGE_LOG_FILE, readChanges } from '../packages/core/src/write-protocol/change-log.js';
import { spawnFixture } from './helpers/processes.js';
import { tempDir } from './helpers/temp.js';

describe('change log across processes', () => {
  it('a reader polling while four writers append and the log starts a new generation misses no key', async () => {
    const dir = await tempDir();
    const path = join(dir, 'locks', 'store', 'changes.log');
    const go = join(dir, 'go');
    const count = 300;
    // ~1 200 records of ~22 bytes: one new generation on the way (a cursor is never two generations behind).
    const writers = ['w0', 'w1', 'w2', 'w3'].map((name) =>
      spawnFixture('change-log-writer.mjs', [path, name, String(count), String(15_000), go]),
    );
    await Promise.all(writers.map((w) => w.waitForLine(/^ready$/)));
    let cursor = changeLogEnd(path);
    const seen = new Set<string>();
    const poll = () => {
      const got = readChanges(path, cursor);
      if (got.lost) throw new Error(`the reader lost its place at ${JSON.stringify(cursor)}`);
      for (const key of got.keys) seen.add(key);
      cursor = got.cursor;
    };
    writeFileSync(go, '');
    let running = writers.length;
    const done = Promise.all(
      writers.map((w) =>
        w.exited.then((r) => {
          running--;
          expect(r.code, r.stderr).toBe(0);
        }),
      ),
    );
    while (running > 0) {
      poll();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    poll();
    const expected = ['w0', 'w1', 'w2', 'w3'].flatMap((name) =>
      Array.from({ length: count }, (_, i) => `${name}-${i}.md`),
    );
    expect([...seen].sort()).toEqual(expected.sort());
    expect(existsSync(join(path, '..', PREVIOUS_CHANGE_LOG_FILE))).toBe(true);
  });
});

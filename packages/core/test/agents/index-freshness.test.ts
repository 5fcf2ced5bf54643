import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { IndexFreshness } from '../../src/agents/mcp/index-freshness.js';
import { withFreshIndex } from '../../src/agents/mcp/mcp-context.js';

const open: IndexFreshness[] = [];
afterEach(() => open.splice(0).forEach((f) => f.close()));

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('IndexFreshness', () => {
  it('refreshes first, then only after the store changed (a note written deep in the tree)', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'memory', 'fix'), { recursive: true });
    const fresh = new IndexFreshness(root);
    open.push(fresh);
    fresh.start();
    expect(fresh.watching).toBe(true);
    expect(fresh.takeRefresh()).toBe(true);
    expect(fresh.takeRefresh()).toBe(false);
    await writeFile(join(root, 'memory', 'fix', 'new.md'), 'x');
    await until(() => fresh.takeRefresh());
    expect(fresh.takeRefresh()).toBe(false);
  });

  it('refreshes every time without a watcher, and at least every max age with one', async () => {
    const none = new IndexFreshness(undefined);
    none.start();
    expect([none.takeRefresh(), none.takeRefresh()]).toEqual([true, true]);
    let now = 0;
    const root = await tempDir();
    const aged = new IndexFreshness(root, 1000, () => now);
    open.push(aged);
    aged.start();
    expect(aged.takeRefresh()).toBe(true);
    now = 999;
    expect(aged.takeRefresh()).toBe(false);
    now = 2001;
    expect(aged.takeRefresh()).toBe(true);
    aged.failed();
    expect(aged.takeRefresh()).toBe(true); // a failed refresh is tried again
  });
});

describe('withFreshIndex', () => {
  it('answers a question asked while a refresh is under way only after it (the index before it misses the change)', async () => {
    const root = await tempDir();
    const freshness = new IndexFreshness(root);
    open.push(freshness);
    freshness.start();
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // The recall socket's debounced refresh (or another question) took the mark and is still reading.
    const first = withFreshIndex({ freshness }, async (refresh) => {
      order.push(`first refreshes: ${refresh}`);
      await gate;
      order.push('first refreshed');
    });
    await until(() => order.length === 1);
    const second = withFreshIndex({ freshness }, async (refresh) => void order.push(`second refreshes: ${refresh}`));
    setImmediate(release); // after the second question had its turn to run ahead
    await Promise.all([first, second]);
    expect(order).toEqual(['first refreshes: true', 'first refreshed', 'second refreshes: false']);
  });

  it('a refresh that failed does not hold the next question, which refreshes again', async () => {
    const freshness = new IndexFreshness(await tempDir());
    open.push(freshness);
    freshness.start();
    await expect(
      withFreshIndex({ freshness }, async () => {
        throw new Error('disk gone');
      }),
    ).rejects.toThrow('disk gone');
    expect(await withFreshIndex({ freshness }, async (refresh) => refresh)).toBe(true);
  });
});

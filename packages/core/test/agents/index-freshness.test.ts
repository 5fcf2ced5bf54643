import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { IndexFreshness } from '../../src/agents/mcp/index-freshness.js';

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

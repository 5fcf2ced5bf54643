import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { App } from 'obsidian';
import { afterEach } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import type { PluginHost } from '../../src/host.js';
import { finishStartup, startApp, type FakeApp } from '../fake-obsidian/testing.js';

export interface TestVault {
  /** The vault folder on disk. */
  readonly dir: string;
  /** A private lock root (never the user's cache). */
  readonly lockRoot: string;
  /** A private Drive lost_and_found folder (created on demand by tests). */
  readonly lostAndFound: string;
  /** The private HOME the plugin reads agentm's config from (`<home>/.claude/.agentm-config.json`). */
  readonly home: string;
  /** The private XDG_CACHE_HOME (locks and the memory index live under `<cache>/agentm/`). */
  readonly cache: string;
  readonly fake: FakeApp;
  /** The same app, as plugin code sees it. */
  readonly app: App;
  readonly host: PluginHost;
  /** Writes files on disk (as another process would), creating folders. */
  put(files: Record<string, string>): Promise<void>;
  /** Writes agentm's config file under the private HOME. */
  writeConfig(data: Record<string, unknown>): Promise<void>;
  /** Sets a file's mtime `secondsAgo` in the past (a copy that has stopped changing). */
  age(path: string, secondsAgo: number): Promise<void>;
}

export const TEST_DEVICE = 'test-box';

// Each test starts its own app; the previous one's window (workspace, modals, notices) goes away.
afterEach(() => document.body.empty());

/** A vault in a temp directory, with files, indexed and laid out (start-up finished unless `start: false`). */
export async function testVault(
  files: Record<string, string> = {},
  options: { start?: boolean; host?: Partial<PluginHost>; env?: Record<string, string> } = {},
): Promise<TestVault> {
  const base = await tempDir('agentm-obsidian-');
  const dir = join(base, 'Vault');
  await mkdir(dir, { recursive: true });
  const put = async (more: Record<string, string>) => {
    for (const [path, text] of Object.entries(more)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
  };
  await put(files);
  const fake = startApp(dir);
  const home = join(base, 'home');
  const cache = join(base, 'cache');
  await mkdir(home, { recursive: true });
  const host: PluginHost = {
    hostEnv: { env: { HOME: home, XDG_CACHE_HOME: cache, ...options.env }, home },
    lockRoot: join(cache, 'agentm', 'locks'),
    deviceName: TEST_DEVICE,
    person: 'tester (Obsidian)',
    lostAndFoundRoots: [join(base, 'DriveFS', 'lost_and_found')],
    now: () => new Date(),
    settleMs: 0,
    lockPollMs: 60_000,
    rescanDebounceMs: 5,
    viewDebounceMs: 5,
    ...options.host,
  };
  if (options.start !== false) await finishStartup(fake);
  return {
    dir,
    lockRoot: host.lockRoot,
    lostAndFound: host.lostAndFoundRoots[0]!,
    home,
    cache,
    fake,
    app: fake as unknown as App,
    host,
    put,
    async writeConfig(data) {
      await mkdir(join(home, '.claude'), { recursive: true });
      await writeFile(join(home, '.claude', '.agentm-config.json'), JSON.stringify(data, null, 2));
    },
    async age(path, secondsAgo) {
      const when = new Date(Date.now() - secondsAgo * 1000);
      await utimes(join(dir, path), when, when);
    },
  };
}

import { hostname, homedir, userInfo } from 'node:os';
import { join } from 'node:path';
import { processHost, type HostEnv } from '@agentm/core';
import { defaultLockRoot } from '@agentm/core/write-protocol';

/**
 * What the plugin takes from the machine rather than from Obsidian. One object, so tests hand in
 * temp directories and a clock, and nothing reaches the real HOME or cache.
 */
export interface PluginHost {
  /** The environment and home agentm's config, the memory index and the storage doctor are read from. */
  readonly hostEnv: HostEnv;
  /** Where every vault's lock directory lives (agentm's: `<XDG_CACHE_HOME or ~/.cache>/agentm/locks`). */
  readonly lockRoot: string;
  /** This device's name, used in AgentM conflict copy names. */
  readonly deviceName: string;
  /** Who the plan view's actions are logged as in a progress file (`ann (Obsidian)`). */
  readonly person: string;
  /** Google Drive's lost_and_found folders to list (those that do not exist are skipped). */
  readonly lostAndFoundRoots: readonly string[];
  /** The clock. */
  now(): Date;
  /** A conflict copy modified more recently than this is still arriving: resolve actions refuse it. */
  readonly settleMs: number;
  /** How often the status bar looks at the vault lock where the OS gives no file events for its folder. */
  readonly lockPollMs: number;
  /** How long vault events are gathered before the conflict list is updated. */
  readonly rescanDebounceMs: number;
  /** How long a change settles before the plan and related memories views read again. */
  readonly viewDebounceMs: number;
}

/**
 * Drive's lost_and_found, where agentm looks for it: macOS `~/Library/Application Support/Google/DriveFS/
 * lost_and_found`; Windows `%LOCALAPPDATA%\Google\DriveFS\lost_and_found` (else under `~/AppData/Local`).
 */
export function driveLostAndFoundRoots(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home = homedir(),
): string[] {
  if (platform === 'darwin')
    return [join(home, 'Library', 'Application Support', 'Google', 'DriveFS', 'lost_and_found')];
  if (platform === 'win32') {
    const local = env['LOCALAPPDATA'] || join(home, 'AppData', 'Local');
    return [join(local, 'Google', 'DriveFS', 'lost_and_found')];
  }
  return [];
}

/** The user's name with where the action came from, as the CLI says `ann (agentm retry)`. */
function personName(): string {
  try {
    return `${userInfo().username} (Obsidian)`;
  } catch {
    return 'Obsidian';
  }
}

export function defaultHost(): PluginHost {
  const hostEnv = processHost();
  return {
    hostEnv,
    lockRoot: defaultLockRoot(hostEnv.env as NodeJS.ProcessEnv, hostEnv.home),
    deviceName: hostname(),
    person: personName(),
    lostAndFoundRoots: driveLostAndFoundRoots(),
    now: () => new Date(),
    settleMs: 3_000,
    lockPollMs: 2_000,
    rescanDebounceMs: 500,
    viewDebounceMs: 400,
  };
}

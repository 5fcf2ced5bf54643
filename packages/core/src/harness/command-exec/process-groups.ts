import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Process-group facts for recovering a crashed run's commands. A step's command leads its own process
 * group (`detached`), so it outlives an agentm that is SIGKILLed; these answer "is that group still
 * here, and is it still the one we started?".
 */

/** Fields of /proc/<pid>/stat after the command name: [0] state, [2] pgrp, [19] starttime. */
function procStat(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * A fingerprint of when a process started (Linux: its start time in clock ticks since boot; macOS and
 * other Unixes: `ps -o lstart=`), so a pid reused by an unrelated process is told apart. Undefined when
 * the process is gone or the platform cannot say.
 */
export function processStartFingerprint(pid: number): string | undefined {
  const stat = procStat(pid);
  if (stat) return stat[19];
  if (process.platform === 'win32' || process.platform === 'linux') return undefined;
  try {
    const out = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 }).trim();
    return out === '' ? undefined : out;
  } catch {
    return undefined;
  }
}

function signalOk(target: number, signal: NodeJS.Signals | 0): 'ok' | 'gone' | 'denied' {
  try {
    process.kill(target, signal);
    return 'ok';
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? 'denied' : 'gone';
  }
}

/**
 * Whether any live (not zombie) process is in group `pgid`. On Linux the group's members are read from
 * /proc so that zombies nobody reaps (a container without an init) do not count as running.
 */
export function groupAlive(pgid: number): boolean {
  if (signalOk(-pgid, 0) === 'gone') return false;
  if (process.platform !== 'linux') return true;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = procStat(Number(entry));
    if (stat && Number(stat[2]) === pgid && stat[0] !== 'Z') return true;
  }
  return false;
}

/** Whether the leader `pid` is alive (and not a zombie). */
function leaderAlive(pid: number): boolean {
  if (signalOk(pid, 0) === 'gone') return false;
  const stat = procStat(pid);
  return stat === undefined ? process.platform !== 'linux' : stat[0] !== 'Z';
}

export type GroupEnd = 'gone' | 'not-ours' | 'ended' | 'cannot';

async function waitGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 25));
  }
  return true;
}

/**
 * Ends a recorded process group and waits until it is gone: SIGTERM, then SIGKILL after `graceMs`.
 * `gone`: nothing of it is left; `not-ours`: its leader's pid now belongs to a process started later
 * (the group is someone else's); `ended`: it was running and now is not; `cannot`: it is still there
 * (no permission, or it will not die). A group whose leader exited but whose members live is still
 * ours: a pid is not reused while a process group of that id exists.
 */
export async function endProcessGroup(
  record: { readonly pgid: number; readonly pid: number; readonly start?: string | undefined },
  graceMs = 2000,
): Promise<GroupEnd> {
  if (record.pgid <= 1 || record.pgid === process.pid) return 'not-ours';
  if (!groupAlive(record.pgid)) return 'gone';
  if (leaderAlive(record.pid) && record.start !== undefined) {
    const now = processStartFingerprint(record.pid);
    if (now !== undefined && now !== record.start) return 'not-ours';
  }
  if (signalOk(-record.pgid, 'SIGTERM') === 'denied') return 'cannot';
  if (await waitGone(record.pgid, graceMs)) return 'ended';
  signalOk(-record.pgid, 'SIGKILL');
  return (await waitGone(record.pgid, 5000)) ? 'ended' : 'cannot';
}

import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** Who claimed a step: written as `[agent:: <pid>@<host>]` with the claim time in `[started:: …]`. */
export interface Claimant {
  readonly pid: number;
  readonly host: string;
}

/** This process as a claimant. */
export function currentClaimant(): Claimant {
  return { pid: process.pid, host: hostname() };
}

export function formatClaimant(c: Claimant): string {
  return `${c.pid}@${c.host}`;
}

/** Reads `pid@host`; undefined for anything else (a role name, a person). */
export function parseClaimant(text: string | undefined): Claimant | undefined {
  const m = /^(\d+)@(\S+)$/.exec(text?.trim() ?? '');
  return m ? { pid: Number(m[1]), host: m[2]! } : undefined;
}

export type Liveness = 'alive' | 'gone' | 'unknown';

/** Start time (ms since the epoch) of a local process, from /proc (Linux); undefined elsewhere. */
function processStartMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[19]);
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'));
    if (!btime || !Number.isFinite(startTicks)) return undefined;
    return Number(btime[1]) * 1000 + (startTicks / 100) * 1000;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that claimed a step (at `claimedAt`, ISO) still runs. A claim from another host
 * is `unknown` (we cannot see its processes; it is left alone). On this host: no such pid → `gone`; a
 * pid that started after the claim was made is a reused pid → `gone`; otherwise `alive`.
 */
export function claimantLiveness(
  claimant: Claimant,
  claimedAt: string | undefined,
  self: Claimant = currentClaimant(),
): Liveness {
  if (claimant.host !== self.host) return 'unknown';
  const claimed = claimedAt ? Date.parse(claimedAt) : Number.NaN;
  if (claimant.pid === self.pid) {
    // Our own pid on a claim we do not hold in memory: a previous process had this pid (containers).
    const ourStart = Date.now() - process.uptime() * 1000;
    return Number.isFinite(claimed) && ourStart > claimed + 1000 ? 'gone' : 'alive';
  }
  try {
    process.kill(claimant.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return 'gone';
    // EPERM: a live process we may not signal.
  }
  const started = processStartMs(claimant.pid);
  if (started !== undefined && Number.isFinite(claimed) && started > claimed + 2000) return 'gone';
  return 'alive';
}

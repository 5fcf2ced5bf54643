import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { endProcessGroup, processStartFingerprint, type GroupEnd } from './process-groups.js';
import { contentHash } from '../../write-protocol/content-hash.js';

/**
 * Device-local records of the commands a step has running: one small file per process group, under a
 * directory per step, in the user's state dir (never the vault: a pid means nothing on another machine).
 * A record is written synchronously right after the spawn returns, before anything can await, and
 * removed when the command ends; a record that outlives its agentm (SIGKILL, power loss) is how the
 * next run finds the group and ends it before the step runs again.
 */
export interface RunRecord {
  readonly pid: number;
  readonly pgid: number;
  /** `processStartFingerprint(pid)` at spawn, to tell a reused pid apart. */
  readonly start?: string;
  readonly argv: readonly string[];
  readonly startedAt: string;
  /** The agentm process that started it. */
  readonly owner: number;
}

/** `$XDG_STATE_HOME/agentm/runs`, else `~/.local/state/agentm/runs`. */
export function defaultRunRecordsDir(env: Readonly<Record<string, string | undefined>>, home: string): string {
  const xdg = env['XDG_STATE_HOME'];
  return join(xdg !== undefined && xdg !== '' ? xdg : join(home, '.local', 'state'), 'agentm', 'runs');
}

/** What `reap` found and did for one recorded group. */
export interface ReapedGroup {
  readonly pgid: number;
  readonly argv: readonly string[];
  readonly outcome: GroupEnd;
}

/** The records of one step (`scope`: the repo, the plan and the step's idempotency key). */
export class StepRunRecords {
  readonly dir: string;

  constructor(root: string, scope: string) {
    this.dir = join(root, contentHash(scope).slice(0, 32));
  }

  /** Records a group just spawned (synchronous on purpose: no await between the spawn and this). */
  add(pid: number, argv: readonly string[]): void {
    const start = processStartFingerprint(pid);
    const record: RunRecord = {
      pid,
      pgid: pid,
      ...(start !== undefined ? { start } : {}),
      argv,
      startedAt: new Date().toISOString(),
      owner: process.pid,
    };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = join(this.dir, `${pid}.json`);
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(record), { mode: 0o600 });
    renameSync(temp, file);
  }

  remove(pid: number): void {
    rmSync(join(this.dir, `${pid}.json`), { force: true });
  }

  list(): RunRecord[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    const out: RunRecord[] = [];
    for (const name of names) {
      if (!/^\d+\.json$/.test(name)) continue;
      try {
        const r = JSON.parse(readFileSync(join(this.dir, name), 'utf8')) as RunRecord;
        if (Number.isInteger(r.pid) && Number.isInteger(r.pgid)) out.push(r);
      } catch {
        // A torn record (crash mid-write cannot happen: temp + rename) or a stranger's file: ignore it.
      }
    }
    return out;
  }

  /**
   * Ends every recorded group of this step that is still running (a crashed run's command) and waits
   * until each is gone, then forgets the records. A group that cannot be ended keeps its record and is
   * reported `cannot`: the caller must not start the step again.
   */
  async reap(): Promise<ReapedGroup[]> {
    const out: ReapedGroup[] = [];
    for (const record of this.list()) {
      const outcome = await endProcessGroup(record);
      if (outcome !== 'cannot') this.remove(record.pid);
      out.push({ pgid: record.pgid, argv: record.argv, outcome });
    }
    return out;
  }
}

/** Where a front end keeps run records, and the records of one step. */
export class RunRecords {
  constructor(readonly root: string) {}

  forStep(projectRoot: string, planName: string, stepKey: string): StepRunRecords {
    return new StepRunRecords(this.root, `${projectRoot}\0${planName}\0${stepKey}`);
  }
}

import type { Observation } from '../observations/observation.js';
import { parseProgress } from '../observations/progress-format.js';
import { parsePlan, type PlanDocument } from '../plan/plan-document.js';
import { effectiveStatus } from '../plan/plan-edit.js';
import { parseClaimant } from './claimant.js';
import { computePlanTerminal, type PlanTerminal } from './core.js';
import { stepViews } from './plan-mutation.js';
import type { PlanFiles } from './plan-files.js';

/** One progress entry as an agent reads it. */
export interface ProgressEntry {
  readonly time: string;
  readonly kind: string;
  readonly step: string;
  readonly attempt: number;
  readonly actor: string;
  readonly text: string;
}

/** A step as an agent reads it: where it stands, what it waits for, and the last thing logged about it. */
export interface StepSummary {
  readonly id: string;
  readonly title: string;
  /** The effective status: `ready` for a pending step whose dependencies are done; `unknown` for a foreign symbol. */
  readonly status: string;
  readonly dependsOn: readonly string[];
  readonly attempt: number;
  readonly agent?: string;
  /** Whether an `agentm run` (`pid@host`) holds it: only that run records it (a person's update is refused). */
  readonly claimedByRun: boolean;
  readonly role?: string;
  /** Whether the step carries a `[cmd:: …]` (run only by `agentm run`, never by a reader of this summary). */
  readonly hasCommand: boolean;
  readonly latest?: ProgressEntry;
}

/** A plan as an agent reads it: its goal and status, each step, and the latest progress. */
export interface PlanSummary {
  readonly name: string;
  readonly planFile: string;
  readonly progressFile: string;
  readonly goal?: string;
  /** The frontmatter `status` when there is one, else `open`. */
  readonly status: string;
  /** Whether the steps have reached a terminal state (`done`, `failed`, `cancelled`), `''` while they can move. */
  readonly terminal: PlanTerminal;
  /** How many steps are in each effective status. */
  readonly counts: Readonly<Record<string, number>>;
  readonly steps: readonly StepSummary[];
  /** The newest progress entries, oldest first. */
  readonly recent: readonly ProgressEntry[];
  /** The end of the progress log when it holds no structured entries (a free-form log, agentm style). */
  readonly progressTail?: string;
  /** Problems a run would refuse (duplicate ids, a dependency cycle) and warnings. */
  readonly problems: readonly string[];
}

const TAIL_CHARS = 1500;

function entry(o: Observation): ProgressEntry {
  return { time: o.time, kind: o.kind, step: o.step, attempt: o.attempt, actor: o.actor, text: o.text };
}

/** The summary of a parsed plan and its progress log (pure). `recent` bounds the newest entries returned (default 10). */
export function summarizePlan(
  doc: PlanDocument,
  progress: string,
  where: { readonly name: string; readonly planFile: string; readonly progressFile: string },
  options: { readonly recent?: number } = {},
): PlanSummary {
  const observations = parseProgress(progress);
  const latest = new Map<string, Observation>();
  for (const o of observations) latest.set(o.step, o);
  const counts: Record<string, number> = {};
  const steps = doc.steps.map((s): StepSummary => {
    const status = effectiveStatus(doc, s);
    counts[status] = (counts[status] ?? 0) + 1;
    const last = latest.get(s.id);
    return {
      id: s.id,
      title: s.title,
      status,
      dependsOn: s.deps,
      attempt: s.attempt,
      ...(s.agent !== undefined ? { agent: s.agent } : {}),
      claimedByRun: status === 'running' && parseClaimant(s.agent) !== undefined,
      ...(s.role !== undefined ? { role: s.role } : {}),
      hasCommand: s.cmd !== undefined,
      ...(last ? { latest: entry(last) } : {}),
    };
  });
  const recentCount = Math.max(0, options.recent ?? 10);
  const tail = progress.trim() === '' || observations.length > 0 ? undefined : progress.slice(-TAIL_CHARS).trim();
  return {
    ...where,
    ...(doc.meta.goal !== undefined ? { goal: doc.meta.goal } : {}),
    status: doc.meta.status ?? 'open',
    terminal: computePlanTerminal(stepViews(doc)),
    counts,
    steps,
    recent: recentCount === 0 ? [] : observations.slice(-recentCount).map(entry),
    ...(tail ? { progressTail: tail } : {}),
    problems: doc.problems.map((p) => `${p.severity}: ${p.message}`),
  };
}

/** Reads a plan and its progress log and summarizes them; undefined when there is no plan file. */
export async function readPlanSummary(
  files: PlanFiles,
  options: { readonly recent?: number } = {},
): Promise<PlanSummary | undefined> {
  const [plan, progress] = await Promise.all([files.readPlan(), files.readProgress()]);
  if (!plan) return undefined;
  return summarizePlan(
    parsePlan(plan.text),
    progress,
    { name: files.name, planFile: files.planLabel, progressFile: files.progressLabel },
    options,
  );
}

import { parseProgress } from '../harness/observations/progress-format.js';
import { parsePlan } from '../harness/plan/plan-document.js';
import { planObservationId, type PlanFiles } from '../harness/reconciler/plan-files.js';
import { explainFailure, type PlanFailure } from '../harness/trace/failures.js';
import type { CliContext } from './context.js';
import { planFlag, shellWord } from './shell-quote.js';

/** The plan's steps as `--json` shows them. */
export interface StepSummary {
  readonly id: string;
  readonly title: string;
  readonly status: string;
  readonly attempt: number;
}

/** What a finished run looks like on disk: every step's status, and why it failed when it did. */
export async function runOutcome(
  files: PlanFiles,
): Promise<{ readonly steps: StepSummary[]; readonly failure: PlanFailure }> {
  const doc = parsePlan((await files.readPlan())?.text ?? '');
  const log = parseProgress(await files.readProgress());
  return {
    steps: doc.steps.map((s) => ({ id: s.id, title: s.title, status: s.stored, attempt: s.attempt })),
    failure: explainFailure(doc, log, planObservationId(files)),
  };
}

/** The commands that retry the failed steps and run the plan again. */
export function retryCommand(name: string, explicitPlan: boolean, failure: PlanFailure): string | undefined {
  if (failure.steps.length === 0) return undefined;
  const plan = planFlag(name, explicitPlan);
  return `agentm retry ${failure.steps.map((s) => shellWord(s.id)).join(' ')}${plan} && agentm run${plan}`;
}

/**
 * Why a run failed, on stderr where the person who ran it looks: each failed step, its reason whole
 * (a command's exit and the tail of its output, a model's stop reason, "needs a chat model: …"), the
 * steps left waiting behind it, a budget halt, and the command that retries.
 */
export function printFailure(ctx: CliContext, name: string, explicitPlan: boolean, failure: PlanFailure): void {
  const err = ctx.term.err;
  for (const s of failure.steps) {
    err.line(['red', '✗'], ' ', ['bold', s.id], ` ${s.title}`, ['dim', ` (attempt ${s.attempt})`]);
    for (const line of s.reason.split('\n')) err.line(`    ${line}`);
  }
  if (failure.planReason) err.line(['red', '✗'], ` plan ${name}: ${failure.planReason}`);
  if (failure.waiting.length > 0)
    err.line(['dim', `  not run (waiting on a failed step): ${failure.waiting.join(', ')}`]);
  const retry = retryCommand(name, explicitPlan, failure);
  if (retry) err.line('retry: ', ['cyan', retry]);
}

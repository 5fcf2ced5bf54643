import { scratchBackend } from '../../backends/builtins.js';
import { yamlScalar } from '../../memory/notes/yaml-scalar.js';
import { parseProgress } from '../observations/progress-format.js';
import { parsePlan } from '../plan/plan-document.js';
import { BackendPlanFiles } from '../reconciler/backend-plan-files.js';
import { usageFromLog, type BudgetUsage } from '../reconciler/budget.js';
import type { StepDispatcher } from '../reconciler/dispatcher.js';
import { Reconciler } from '../reconciler/reconciler.js';

/** A plan recipe: goal and a DAG of steps (replay and eval fixtures). */
export interface PlanSpec {
  readonly name: string;
  readonly goal: string;
  readonly steps: ReadonlyArray<{ readonly id: string; readonly title?: string; readonly deps: readonly string[] }>;
}

export const MAX_SPEC_TICKS = 1000;

/** A fresh PLAN file for a spec: every step pending, ids and dependencies explicit. */
export function renderSpecPlan(spec: PlanSpec): string {
  const lines = ['---', `goal: ${yamlScalar(spec.goal)}`, 'status: open', '---', ''];
  for (const s of spec.steps)
    lines.push(
      `- [ ] ${(s.title ?? s.id).replace(/\s+/g, ' ')} [id:: ${s.id}]${s.deps.length > 0 ? ` [after:: ${s.deps.join(', ')}]` : ''}`,
    );
  return `${lines.join('\n')}\n`;
}

export interface SpecRun {
  readonly status: string;
  /** Step ids in claim order. */
  readonly claims: readonly string[];
  readonly usage: BudgetUsage;
  readonly wallClockMs: number;
  readonly plan: string;
  readonly progress: string;
}

/**
 * Runs a spec through the real reconciler over an in-memory store (memQL's eval/replay graph):
 * concurrency 1, ticks that wait for their steps, until the plan is terminal or a tick dispatches
 * nothing new (at most 1000 ticks).
 */
export async function runSpec(spec: PlanSpec, dispatcher: StepDispatcher): Promise<SpecRun> {
  const backend = scratchBackend();
  const planLoc = backend.resolve(`PLAN-${spec.name}.md`);
  const files = new BackendPlanFiles(backend, planLoc, backend.resolve(`progress-${spec.name}.md`), {
    name: spec.name,
  });
  await backend.write(planLoc, renderSpecPlan(spec), { expectHash: null });
  const reconciler = new Reconciler({ files, dispatcher, maxConcurrent: 1 });
  const claims: string[] = [];
  const started = Date.now();
  for (let tick = 0; tick < MAX_SPEC_TICKS; tick++) {
    const report = await reconciler.tick({ wait: true });
    claims.push(...report.claimed);
    if (report.skipped || report.terminal !== '' || report.claimed.length === 0) break;
  }
  const wallClockMs = Date.now() - started;
  const plan = (await files.readPlan())!.text;
  const progress = await files.readProgress();
  const status = parsePlan(plan).meta.status ?? 'open';
  return { status, claims, usage: usageFromLog(parseProgress(progress), Date.now()), wallClockMs, plan, progress };
}

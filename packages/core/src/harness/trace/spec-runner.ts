import { scratchBackend } from '../../backends/builtins.js';
import { yamlScalar } from '../../memory/notes/yaml-scalar.js';
import { parseProgress } from '../observations/progress-format.js';
import { parsePlan } from '../plan/plan-document.js';
import { BackendPlanFiles } from '../reconciler/backend-plan-files.js';
import { usageFromLog, type BudgetUsage } from '../reconciler/budget.js';
import type { StepDispatcher } from '../reconciler/dispatcher.js';
import { Reconciler } from '../reconciler/reconciler.js';

/** One step of a recipe: its id, title and dependencies, and what it is given to work on. */
export interface PlanSpecStep {
  readonly id: string;
  readonly title?: string;
  readonly deps: readonly string[];
  /** The step's inputs (memQL's step `Input`): its inline fields such as `cmd`, `role`, `timeout`. */
  readonly input?: Readonly<Record<string, string>>;
  /** The notes under the step, one line each. */
  readonly details?: string;
}

/** A plan recipe: goal and a DAG of steps (replay and eval fixtures). */
export interface PlanSpec {
  readonly name: string;
  readonly goal: string;
  readonly steps: ReadonlyArray<PlanSpecStep>;
}

export const MAX_SPEC_TICKS = 1000;

/** The fields a spec writes itself (`id`, `after`): an input by those names is not repeated. */
const STRUCTURE_FIELDS = new Set(['id', 'after']);

/** A fresh PLAN file for a spec: every step pending, ids and dependencies explicit, inputs and notes kept. */
export function renderSpecPlan(spec: PlanSpec): string {
  const lines = ['---', `goal: ${yamlScalar(spec.goal)}`, 'status: open', '---', ''];
  for (const s of spec.steps) {
    const inputs = Object.entries(s.input ?? {})
      .filter(([key]) => !STRUCTURE_FIELDS.has(key))
      .map(([key, value]) => ` [${key}:: ${value}]`)
      .join('');
    lines.push(
      `- [ ] ${(s.title ?? s.id).replace(/\s+/g, ' ')} [id:: ${s.id}]${s.deps.length > 0 ? ` [after:: ${s.deps.join(', ')}]` : ''}${inputs}`,
    );
    for (const note of (s.details ?? '').split('\n')) if (note.trim() !== '') lines.push(`  ${note.trim()}`);
  }
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

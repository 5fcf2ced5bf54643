import {
  effectiveStatus,
  makeObservation,
  mutatePlan,
  type PlanDocument,
  type PlanStep,
  type StepStatus,
} from '@agentm/core';
import { NothingToDoError } from '../errors';
import { planArgument } from './plan-runner';
import type { ProjectTracker } from './project-tracker';

/** One atomic plan change, as `mutatePlan` takes it. */
type PlanChange = NonNullable<ReturnType<Parameters<typeof mutatePlan>[2]>>;

/** What an agent can do to a step through the language model tool. */
export type StepAction = 'start' | 'done' | 'failed' | 'note';

export interface StepUpdate {
  /** The plan (`PLAN`, or `<name>` of `PLAN-<name>.md`); undefined: the active plan. */
  readonly plan: string | undefined;
  readonly step: string;
  readonly action: StepAction;
  /** The reason (failed), a result summary (done) or the note's text. */
  readonly text: string | undefined;
}

export interface StepUpdateResult {
  readonly plan: string;
  readonly step: string;
  readonly from: StepStatus | 'unknown';
  readonly to: StepStatus | 'unknown';
  readonly planStatus: string | undefined;
}

/** Who the progress log names for an update made by an agent through the tool. */
export const AGENT_ACTOR = 'vscode-agent';

function stepOf(doc: PlanDocument, plan: string, id: string): PlanStep {
  const step = doc.steps.find((s) => s.id === id);
  if (!step)
    throw new NothingToDoError(
      `plan '${plan}' has no step '${id}'; its steps are: ${doc.steps.map((s) => s.id).join(', ') || 'none'}`,
    );
  return step;
}

/** The change an update makes, decided against the plan as it is now (re-decided after a lost CAS). */
export function decideUpdate(doc: PlanDocument, plan: string, update: StepUpdate, now: Date): PlanChange {
  const step = stepOf(doc, plan, update.step);
  const status = effectiveStatus(doc, step);
  const base = { step: step.id, attempt: step.attempt, actor: AGENT_ACTOR, time: now };
  if (update.action === 'note') {
    return { after: [makeObservation({ ...base, kind: 'note', text: update.text ?? '' })] };
  }
  if (status === 'pending') {
    const waiting = step.deps.filter((d) => doc.steps.find((s) => s.id === d)?.stored !== 'done');
    throw new NothingToDoError(
      `step '${step.id}' of plan '${plan}' is pending: it waits for ${waiting.join(', ') || 'its dependencies'} to be done first`,
    );
  }
  const claim = { step: step.id, to: 'running' as const, fields: { agent: AGENT_ACTOR, started: now.toISOString() } };
  if (update.action === 'start') return { transitions: [claim] };
  // Finishing a ready step starts it first, so the log shows it ran (ready → running → done | failed).
  const started = status === 'ready' ? [claim] : [];
  if (update.action === 'done') {
    const result = update.text
      ? [makeObservation({ ...base, kind: 'tool_result', text: `step "${step.id}" completed: ${update.text}` })]
      : [];
    return { transitions: [...started, { step: step.id, to: 'done' }], after: result, settle: true };
  }
  const reason = makeObservation({
    ...base,
    kind: 'error',
    text: `step "${step.id}" failed: ${update.text ?? 'no reason given'}`,
  });
  return { transitions: [...started, { step: step.id, to: 'failed' }], before: [reason], settle: true };
}

/**
 * Step updates made by an agent (the language model tool), through the same path as the harness: core's
 * state machine refuses an illegal move, and plan and progress log change together by compare-and-swap
 * under the store's lock.
 */
export class CoreStepUpdates {
  constructor(private readonly tracker: ProjectTracker) {}

  async update(update: StepUpdate): Promise<StepUpdateResult> {
    const ws = await this.tracker.current();
    if (!ws.project) throw new NothingToDoError(`cannot update a step: ${ws.noProject}`);
    const { files } = await (
      await ws.workspace.harness()
    ).planFiles(update.plan === undefined ? undefined : planArgument(update.plan));
    const now = new Date();
    let from: StepStatus | 'unknown' = 'unknown';
    const result = await mutatePlan(files, AGENT_ACTOR, (doc) => {
      from = effectiveStatus(doc, stepOf(doc, files.name, update.step));
      return decideUpdate(doc, files.name, update, now);
    });
    if (!result) throw new NothingToDoError(`plan '${files.name}' has no PLAN file (${files.planLabel})`);
    const after = result.doc.steps.find((s) => s.id === update.step);
    return {
      plan: files.name,
      step: update.step,
      from,
      to: after ? effectiveStatus(result.doc, after) : 'unknown',
      planStatus: result.doc.meta.status,
    };
  }
}

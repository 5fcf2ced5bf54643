import { HarnessError, InvalidTransitionError, PlanNotFoundError } from '../errors.js';
import { makeObservation, type Observation, type ObservationValue } from '../observations/observation.js';
import { findStep, parsePlan, type PlanStep } from '../plan/plan-document.js';
import { effectiveStatus, type AppliedTransition, type TransitionRequest } from '../plan/plan-edit.js';
import type { StepStatus } from '../plan/step-status.js';
import { parseClaimant } from './claimant.js';
import { mutatePlan, type PlanChange } from './plan-mutation.js';
import { planObservationId, type PlanFiles } from './plan-files.js';

/** What an agent or a person does to a step by hand (no command is ever run by an update). */
export type StepAction = 'start' | 'done' | 'failed' | 'note';
export const STEP_ACTIONS: readonly StepAction[] = ['start', 'done', 'failed', 'note'];

export interface StepUpdate {
  readonly step: string;
  readonly action: StepAction;
  /** The note (required for `note`), the reason (required for `failed`), or an optional note for `start`/`done`. */
  readonly text?: string | undefined;
}

export interface StepUpdateResult {
  /** The transitions written (empty for a note). */
  readonly applied: readonly AppliedTransition[];
  /** The step's status after the update. */
  readonly status: string;
  /** The plan's status when this update settled it (`done`, `failed`, `cancelled`). */
  readonly planStatus?: string;
}

/** A step update without the text it needs (`failed` without a reason, `note` without a note). */
export class StepUpdateArgumentError extends HarnessError {
  constructor(message: string) {
    super(message, { code: 'ESTEPUPDATEARG' });
  }
}

function requireText(update: StepUpdate): string {
  const text = update.text?.trim() ?? '';
  if (text === '')
    throw new StepUpdateArgumentError(
      update.action === 'failed'
        ? `marking step "${update.step}" failed needs a reason: say what went wrong`
        : `a note on step "${update.step}" needs its text`,
    );
  return text;
}

/**
 * The transitions of an update from the step's current status: `start` is ready → running (claimed by
 * `actor`); `done` and `failed` finish a running step, and start a ready one first (both moves are
 * logged), so an agent that did the work without saying `start` can still record it. Anything the step
 * state machine forbids (a pending step whose dependencies are not done, a finished step) is refused by
 * it with its own message; so is taking over a step a run (`pid@host`) holds.
 */
function transitionsFor(
  action: Exclude<StepAction, 'note'>,
  step: PlanStep,
  from: string,
  actor: string,
  now: string,
): TransitionRequest[] {
  const to: StepStatus = action === 'start' ? 'running' : action;
  assertManualMove(step, from, to, actor);
  const claim: TransitionRequest = { step: step.id, to: 'running', fields: { agent: actor, started: now } };
  if (action === 'start') return [claim];
  return from === 'ready' ? [claim, { step: step.id, to }] : [{ step: step.id, to }];
}

/**
 * What a person or an agent may not do by hand, whatever the state machine allows: a move to the status
 * the step already has (the machine allows it to rewrite fields, but by hand it would take a running step
 * away from whoever runs it, or log a second "done"), and taking a step away from the `agentm run`
 * (`pid@host`) that claimed it. Throws `InvalidTransitionError` naming who holds the step.
 */
export function assertManualMove(step: PlanStep, from: string, to: StepStatus, actor: string): void {
  if (from === to)
    throw new InvalidTransitionError(
      step.id,
      from,
      to,
      from === 'running' ? `it is already running, claimed by ${step.agent ?? 'someone'}` : `it is already ${from}`,
    );
  if (from === 'running' && parseClaimant(step.agent) && step.agent !== actor)
    throw new InvalidTransitionError(
      step.id,
      from,
      to,
      `agentm run (${step.agent}) is running it; let the run record it, or stop the run first`,
    );
}

/**
 * Updates one step of a plan in one compare-and-swap commit under the plan's lock (the path `agentm run`
 * writes through): the transitions, checked by the step state machine, plus the note or reason as a
 * progress entry. A finished step settles the plan's status when it is the last. Throws
 * `PlanNotFoundError` without a plan file, `UnknownStepError`, `InvalidTransitionError`,
 * `StepUpdateArgumentError`; a lost race is re-decided on the fresh plan (bounded).
 */
export async function updateStep(
  files: PlanFiles,
  actor: string,
  update: StepUpdate,
  now: () => number = Date.now,
): Promise<StepUpdateResult> {
  const text = update.action === 'failed' || update.action === 'note' ? requireText(update) : update.text?.trim();
  const at = () => new Date(now());
  const result = await mutatePlan(
    files,
    actor,
    (doc): PlanChange => {
      const step = findStep(doc, update.step);
      const note = (kind: Observation['kind'], data: Record<string, ObservationValue> = {}) =>
        makeObservation({ kind, step: step.id, attempt: step.attempt, actor, time: at(), text: text ?? '', data });
      if (update.action === 'note') return { after: [note('note')] };
      const from = effectiveStatus(doc, step);
      const transitions = transitionsFor(update.action, step, from, actor, at().toISOString());
      if (update.action === 'failed')
        return { before: [note('error', { reason: 'reported' })], transitions, settle: true };
      return { transitions, settle: update.action === 'done', ...(text ? { after: [note('note')] } : {}) };
    },
    now,
  );
  if (!result) throw new PlanNotFoundError(files.planLabel);
  const step = findStep(result.doc, update.step);
  return {
    applied: result.applied,
    status: effectiveStatus(result.doc, step),
    ...(result.planStatus ? { planStatus: result.planStatus } : {}),
  };
}

/**
 * Appends a note to the progress log (lock + compare-and-swap append; the log's other bytes are kept):
 * about `step` when given (which must be in the plan), else about the plan as a whole. A plan-level note
 * needs no plan file (a free-form log is a log too). `data` adds flat fields (keys `[a-z0-9_]+`).
 */
export async function appendProgressNote(
  files: PlanFiles,
  actor: string,
  text: string,
  options: {
    readonly step?: string | undefined;
    readonly data?: Readonly<Record<string, ObservationValue>>;
    readonly now?: () => number;
  } = {},
): Promise<Observation> {
  if (text.trim() === '') throw new StepUpdateArgumentError('a progress note needs its text');
  let stepId = planObservationId(files);
  let attempt = 0;
  if (options.step !== undefined) {
    const plan = await files.readPlan();
    if (!plan) throw new PlanNotFoundError(files.planLabel);
    const step = findStep(parsePlan(plan.text), options.step);
    stepId = step.id;
    attempt = step.attempt;
  }
  const observation = makeObservation({
    kind: 'note',
    step: stepId,
    attempt,
    actor,
    time: new Date((options.now ?? Date.now)()),
    text,
    ...(options.data ? { data: options.data } : {}),
  });
  await files.commit({ observations: [observation] });
  return observation;
}

import { InvalidTransitionError } from '../errors.js';
import { withFrontmatterStatus } from './frontmatter.js';
import { setInlineFields } from './inline-fields.js';
import { joinLines } from './lines.js';
import { findStep, parsePlan, type PlanDocument, type PlanStep } from './plan-document.js';
import { assertTransition } from './state-machine.js';
import { STATUS_SYMBOL, type PlanStatus, type StepStatus } from './step-status.js';

/** The ids of a parsed document's done steps, made once per document (documents are immutable). */
const doneIdsOf = new WeakMap<PlanDocument, ReadonlySet<string>>();

/** Whether every effective dependency of `step` is present and done. */
export function depsDone(doc: PlanDocument, step: PlanStep): boolean {
  let done = doneIdsOf.get(doc);
  if (done === undefined) {
    // A set, not a scan per dependency: asking this of every step was quadratic in the plan's length
    // (a 10 000-step plan spent seconds per reconcile tick).
    done = new Set(doc.steps.filter((s) => s.stored === 'done').map((s) => s.id));
    doneIdsOf.set(doc, done);
  }
  return step.deps.every((dep) => done.has(dep));
}

/** The status a step is in now: stored, except that a pending step with all dependencies done is `ready`. */
export function effectiveStatus(doc: PlanDocument, step: PlanStep): StepStatus | 'unknown' {
  if (step.stored === 'pending' && depsDone(doc, step)) return 'ready';
  return step.stored;
}

export interface TransitionRequest {
  readonly step: string;
  readonly to: StepStatus;
  /** The new attempt (default: unchanged). A `failed → ready` retry must raise it. */
  readonly attempt?: number;
  /** Inline fields to add or update on the step's line (e.g. `agent`, `started`, `key`). */
  readonly fields?: Readonly<Record<string, string>>;
}

export interface AppliedTransition {
  readonly step: string;
  readonly from: StepStatus;
  readonly to: StepStatus;
  readonly attempt: number;
  readonly line: number;
}

/**
 * The one way a step's status is written. Checks the move against the state machine (an illegal move
 * throws `InvalidTransitionError` / `RetryAttemptError`, whoever asks), then rewrites only the step's own
 * line: the checkbox symbol and the given inline fields (plus `[id:: …]` when the id was derived, so it
 * stays stable, and `[attempt:: n]` when it changes). Every other byte of the file is kept.
 */
export function transitionStep(
  doc: PlanDocument,
  request: TransitionRequest,
): { doc: PlanDocument; applied: AppliedTransition } {
  const step = findStep(doc, request.step);
  const from = effectiveStatus(doc, step);
  if (from === 'unknown')
    throw new InvalidTransitionError(step.id, `[${step.symbol}]`, request.to, `unknown status symbol [${step.symbol}]`);
  const attempt = request.attempt ?? step.attempt;
  if (attempt < step.attempt)
    throw new InvalidTransitionError(
      step.id,
      from,
      request.to,
      `attempt may not go down from ${step.attempt} to ${attempt}`,
    );
  assertTransition(step.id, from, request.to, step.attempt, attempt);
  // A [/] without [agent:: …] reads back as pending (parsePlan): running is only ever a claim.
  if (request.to === 'running' && !(request.fields?.['agent'] ?? step.agent))
    throw new InvalidTransitionError(step.id, from, request.to, 'a step runs only when claimed: give its [agent:: …]');

  const line = doc.lines[step.line]!;
  const head =
    line.text.slice(0, step.symbolOffset) +
    STATUS_SYMBOL[request.to] +
    line.text.slice(step.symbolOffset + step.symbol.length, step.contentStart);
  const fields: Record<string, string> = {};
  if (!step.idExplicit) fields['id'] = step.id;
  Object.assign(fields, request.fields ?? {});
  if (attempt !== step.attempt) fields['attempt'] = String(attempt);
  const content =
    Object.keys(fields).length > 0
      ? setInlineFields(line.text.slice(step.contentStart), fields)
      : line.text.slice(step.contentStart);
  const lines = [...doc.lines];
  lines[step.line] = { text: head + content, eol: line.eol };
  return {
    doc: parsePlan(joinLines(lines)),
    applied: { step: step.id, from, to: request.to, attempt, line: step.line },
  };
}

/** Applies several transitions in order (each checked against the state after the previous one). */
export function transitionSteps(
  doc: PlanDocument,
  requests: readonly TransitionRequest[],
): { doc: PlanDocument; applied: AppliedTransition[] } {
  const applied: AppliedTransition[] = [];
  let current = doc;
  for (const request of requests) {
    const result = transitionStep(current, request);
    current = result.doc;
    applied.push(result.applied);
  }
  return { doc: current, applied };
}

/** The plan with its frontmatter `status` set (one line rewritten or added; plan status has no guard, as in memQL). */
export function withPlanStatus(doc: PlanDocument, status: PlanStatus): PlanDocument {
  return parsePlan(joinLines(withFrontmatterStatus(doc.lines, doc.frontmatter, status)));
}

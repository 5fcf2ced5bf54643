import type { ObservationKind, ObservationValue } from '../observations/observation.js';
import type { PlanDocument, PlanStep } from '../plan/plan-document.js';

/** What an executor is handed for one claimed step. */
export interface DispatchRequest {
  /** The plan as it was right after the claim. */
  readonly plan: PlanDocument;
  /** The step as claimed (stored `running`). */
  readonly step: PlanStep;
  readonly planName: string;
  /** The step's idempotency key (`[key:: …]`): the same on every attempt of this step. */
  readonly stepKey: string;
  readonly attempt: number;
  /** What is left of the plan budget (0 = unlimited), so a tool loop can stop in time. */
  readonly remaining: { readonly toolCalls: number; readonly tokens: number };
  /** Appends an observation for this step and attempt to the progress log (e.g. each tool result). */
  readonly record: (entry: {
    kind: ObservationKind;
    text: string;
    data?: Readonly<Record<string, ObservationValue | undefined>>;
  }) => Promise<void>;
  /** Aborted when the reconciler stops; an executor should give up promptly. */
  readonly signal: AbortSignal;
}

/** How a dispatch ended. A thrown error is treated as `failed` with its message. */
export interface StepOutcome {
  readonly status: 'done' | 'failed' | 'blocked';
  /** One or a few lines a person reads in the progress log. */
  readonly summary: string;
  /** Tool calls and tokens spent by this dispatch (they count against the plan budget). */
  readonly toolCalls: number;
  readonly tokens: number;
  /** The main tool, when there is one (`shell`, `llm`). */
  readonly tool?: string;
  /** Extra structured details for the result observation (`exit_code`, `stop_reason`, …). */
  readonly data?: Readonly<Record<string, ObservationValue | undefined>>;
}

/** Runs claimed steps. The reconciler owns claims, records and statuses; a dispatcher only does the work. */
export interface StepDispatcher {
  dispatch(request: DispatchRequest): Promise<StepOutcome>;
}

/** A dispatcher from a function. */
export function dispatcherFrom(fn: (request: DispatchRequest) => Promise<StepOutcome>): StepDispatcher {
  return { dispatch: fn };
}

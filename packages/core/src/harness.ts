/**
 * @agentm/core/harness — the plan harness's building blocks, for a front end that shows or steers a
 * plan beside the workspace's plan handle: a step's status and actions, plan and progress views, command
 * approval, the progress log's entries, harness state's location, and the harness errors a front end
 * tells apart.
 */
export type { RunStepEvent } from './workspace/harness-services.js';
export type { ApprovalAsker, ApprovalPrompt } from './harness/command-exec/command-gate.js';
export type { StepAction } from './harness/reconciler/step-update.js';
export type { ProgressEntry, StepSummary } from './harness/reconciler/plan-view.js';
export { planTitle } from './harness/plan/plan-title.js';
export { effectiveStatus } from './harness/plan/plan-edit.js';
export type { StepStatus } from './harness/plan/step-status.js';
export { makeObservation, type Observation } from './harness/observations/observation.js';
export { appendObservations } from './harness/observations/progress-format.js';
export { stateLocation, type StateLocation } from './state/state-location.js';
export { PlanNotFoundError, RetryRefusedError, StalePlanError, UnknownStepError } from './harness/errors.js';
export { CommandsNotApprovedError } from './harness/command-exec/plan-commands.js';
export { PreflightError } from './harness/executors/preflight.js';

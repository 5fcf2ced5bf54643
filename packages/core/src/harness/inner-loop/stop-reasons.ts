/**
 * Why a tool-calling turn ended. Every turn ends with exactly one, recorded as a `note` observation:
 * - `respondToUser`: the model answered (no more tool calls) after using tools;
 * - `text_only`: the model answered and no tools were offered;
 * - `budget_exhausted`: the plan's tool-call or token budget ran out;
 * - `loop_detected`: the same call repeated (3 in a row or 5 in the turn);
 * - `hard_error`: the model call failed for good (after retries) or returned something unusable;
 * - `max_iterations`: the iteration cap was reached.
 */
export type StopReason =
  'respondToUser' | 'text_only' | 'budget_exhausted' | 'loop_detected' | 'hard_error' | 'max_iterations';

export const STOP_REASONS: readonly StopReason[] = [
  'respondToUser',
  'text_only',
  'budget_exhausted',
  'loop_detected',
  'hard_error',
  'max_iterations',
];

/** Whether a step whose turn ended this way is done (the model answered) or failed. */
export function stopReasonSucceeded(reason: StopReason): boolean {
  return reason === 'respondToUser' || reason === 'text_only';
}

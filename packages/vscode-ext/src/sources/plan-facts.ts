// Pure: what the views say about a step beyond its status — its latest failure and how its reason reads.
// No vscode import, so both are table-tested without an editor.
import type { Observation } from '@agentm/core/harness';
import type { StepFailure } from './types';

/**
 * Each step's latest failure as the progress log records it: the last `error` entry about the step
 * (a failed dispatch carries the exit code and output tail, or the model's stop reason).
 */
export function lastFailures(log: readonly Observation[]): Map<string, StepFailure> {
  const failures = new Map<string, StepFailure>();
  for (const o of log)
    if (o.kind === 'error' && !o.step.startsWith('plan:'))
      failures.set(o.step, { attempt: o.attempt, when: o.time, reason: o.text });
  return failures;
}

const DISPATCH_HEAD = /^step "[^"\n]*" dispatch failed: /;
const MODEL_STOP = /^stopped \([a-z_]+\): (?:[a-z_]+: )?/;

/** A failure's reason without the log's `step "x" dispatch failed: ` head (the step is named beside it). */
export function failureReason(text: string): string {
  return text.replace(DISPATCH_HEAD, '');
}

/**
 * A failure's reason in a notification: without the `$ command` echo (shown with the step), the first
 * lines of what is left (the exit code and the output's last lines), at most `max` characters; the
 * progress log keeps it whole.
 */
export function failureHeadline(text: string, max = 400): string {
  const lines = failureReason(text)
    // A model step's stop reason and error class (`stopped (hard_error): internal: …`) say less than the message.
    .replace(MODEL_STOP, '')
    .split('\n')
    .filter((l) => !l.startsWith('$ ') && l.trim() !== '');
  const joined = lines.slice(0, 4).join(' · ');
  return joined.length > max ? `${joined.slice(0, max - 1)}…` : joined;
}

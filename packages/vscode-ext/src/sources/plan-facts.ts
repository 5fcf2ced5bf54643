// Pure: what the views say about a plan read once, and about a step beyond its status — its latest
// failure and how its reason reads. No vscode import, so all are table-tested without an editor.
import { parsePlan, parseProgress } from '@agentm/core';
import { effectiveStatus, planTitle, type Observation } from '@agentm/core/harness';
import { contentHash } from '@agentm/core/write-protocol';
import type { PlanView, ProgressEntryView, StepFailure } from './types';

/** Progress entries shown under a plan, newest first. */
export const PROGRESS_ENTRIES = 8;

function entryView(o: Observation): ProgressEntryView {
  return {
    id: contentHash(`${o.time}|${o.kind}|${o.step}|${o.attempt}|${o.actor}|${o.text}`).slice(0, 16),
    when: o.time,
    kind: o.kind,
    step: o.step,
    text: o.text,
  };
}

/**
 * What the view says about plan `name`, all from one read of its plan and progress files: its title,
 * goal and status beside its steps and newest entries. Nothing comes from the plan listing, which read
 * the files earlier: a write between the two reads showed a plan "open" with every step done.
 */
export function planFacts(
  name: string,
  planText: string,
  progressText: string,
): Omit<PlanView, 'active' | 'planUri' | 'progressUri'> {
  const doc = parsePlan(planText);
  const log = parseProgress(progressText);
  const failures = lastFailures(log);
  const steps = doc.steps.map((step) => {
    const status = effectiveStatus(doc, step);
    return {
      id: step.id,
      title: step.title,
      status: status === 'unknown' ? ('pending' as const) : status,
      after: step.after,
      attempt: step.attempt,
      line: step.line,
      cmd: step.cmd,
      lastFailure: failures.get(step.id),
    };
  });
  return {
    name,
    goal: doc.meta.goal,
    title: planTitle(doc, name),
    status: doc.meta.status ?? 'open',
    steps,
    progress: log.slice(-PROGRESS_ENTRIES).reverse().map(entryView),
  };
}

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

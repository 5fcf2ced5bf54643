// Pure: how plans, steps, progress entries and recall hits read in the tree. No vscode import, so the
// mapping is table-tested without an editor.
import type { StepStatus } from '@agentm/core/harness';
import { failureReason } from '../sources/plan-facts';
import type { ProgressEntryView, RecallHit, StepView } from '../sources/types';

/** Codicon per step status; a running step spins. */
export const STEP_ICONS: Readonly<Record<StepStatus, { readonly icon: string; readonly color?: string }>> = {
  pending: { icon: 'circle-large-outline' },
  ready: { icon: 'circle-large-outline', color: 'charts.blue' },
  running: { icon: 'loading~spin', color: 'charts.yellow' },
  done: { icon: 'pass-filled', color: 'testing.iconPassed' },
  failed: { icon: 'error', color: 'testing.iconFailed' },
  blocked: { icon: 'question', color: 'charts.orange' },
  cancelled: { icon: 'circle-slash', color: 'disabledForeground' },
};

export interface ItemText {
  readonly label: string;
  readonly description: string;
  readonly tooltip: string;
  readonly contextValue: string;
}

/** How a step's attempt reads: `[attempt:: n]` counts retries, so 0 is the first try. */
function attemptLine(attempt: number): string {
  return attempt === 0
    ? 'attempt 0 (the first)'
    : `attempt ${attempt} (retried ${attempt === 1 ? 'once' : `${attempt} times`})`;
}

/**
 * A step: its title, with status, dependencies and retries beside it; the tooltip adds what it runs
 * (its command, or its title as the model's goal) and the reason of its latest failure, whole.
 */
export function stepText(step: StepView): ItemText {
  const after = step.after.length ? `after ${step.after.join(', ')}` : '';
  // Attempts count from 0 (`[attempt:: n]` is written from the first retry on).
  const attempt = step.attempt > 0 ? `attempt ${step.attempt}` : '';
  const runs = step.cmd !== undefined ? `command: ${step.cmd}` : `goal (for the model): ${step.title}`;
  const failure = step.lastFailure
    ? `last failure (attempt ${step.lastFailure.attempt}, ${step.lastFailure.when}):\n${failureReason(step.lastFailure.reason)}`
    : '';
  return {
    label: step.title,
    description: [step.status, after, attempt].filter(Boolean).join(' · '),
    tooltip: [`${step.id}: ${step.title}`, `status: ${step.status}`, attemptLine(step.attempt), runs, after, failure]
      .filter(Boolean)
      .join('\n'),
    contextValue: `agentm.step.${step.status}`,
  };
}

/** A plan: its goal (or first heading) as the label, its file name beside it when they differ. */
export function planText(plan: {
  readonly name: string;
  readonly title: string;
  readonly goal: string | undefined;
  readonly active: boolean;
  readonly status: string;
  readonly steps: readonly StepView[];
}): Pick<ItemText, 'label' | 'description' | 'tooltip'> {
  const description = planDescription(plan);
  return {
    label: plan.title,
    description: plan.title === plan.name ? description : [plan.name, description].filter(Boolean).join(' · '),
    tooltip: [`plan ${plan.name}${plan.goal ? `: ${plan.goal}` : ''}`, description].filter(Boolean).join('\n'),
  };
}

export function planDescription(plan: {
  readonly active: boolean;
  readonly status: string;
  readonly steps: readonly StepView[];
}): string {
  const done = plan.steps.filter((s) => s.status === 'done').length;
  return [plan.active ? 'active' : '', plan.status, plan.steps.length ? `${done}/${plan.steps.length} done` : '']
    .filter(Boolean)
    .join(' · ');
}

export function progressText(entry: ProgressEntryView): ItemText {
  return {
    label: entry.text.split('\n')[0] ?? '',
    description: `${entry.kind} · ${entry.step} · ${entry.when}`,
    tooltip: `${entry.when} ${entry.kind} (${entry.step})\n${entry.text}`,
    contextValue: 'agentm.progressEntry',
  };
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A recall hit: a search result shows its score; phase recall (no query to score against) its date. */
export function hitText(hit: RecallHit, scored = true): ItemText {
  return {
    label: hit.title,
    description: scored ? `${hit.kind} · score ${hit.score.toFixed(2)}` : `${hit.kind} · ${day(hit.updatedMs)}`,
    tooltip: `${hit.title} (${hit.kind})\nscore ${hit.score.toFixed(3)} = relevance ${hit.similarity.toFixed(3)}, recency ${hit.recency.toFixed(3)}\n\n${hit.snippet}`,
    contextValue: 'agentm.note',
  };
}

// Pure: how plans, steps, progress entries and recall hits read in the tree. No vscode import, so the
// mapping is table-tested without an editor.
import type { StepStatus } from '@agentm/core';
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

export function stepText(step: StepView): ItemText {
  const after = step.after.length ? `after ${step.after.join(', ')}` : '';
  // Attempts count from 0 (`[attempt:: n]` is written from the first retry on).
  const attempt = step.attempt > 0 ? `attempt ${step.attempt}` : '';
  return {
    label: step.title,
    description: [step.status, after, attempt].filter(Boolean).join(' · '),
    tooltip: `${step.id}: ${step.title}\nstatus: ${step.status}${after ? `\n${after}` : ''}${attempt ? `\n${attempt}` : ''}`,
    contextValue: `agentm.step.${step.status}`,
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

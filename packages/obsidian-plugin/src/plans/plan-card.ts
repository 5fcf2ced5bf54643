import { setIcon, type Component } from 'obsidian';
import type { ListedPlan, PlanDetail } from '@agentm/core';
import type { ProgressEntry, StepSummary } from '@agentm/core/harness';
import { planActions, STEP_ACTION_TEXT, stepActions, type PlanAction, type StepAction } from './plan-actions.js';

/** Each status's icon (Lucide, as Obsidian ships it) and word. */
const STATUS: Readonly<Record<string, readonly [icon: string, word: string]>> = {
  pending: ['circle', 'pending'],
  ready: ['circle-dot', 'ready'],
  running: ['loader', 'running'],
  done: ['circle-check', 'done'],
  failed: ['circle-x', 'failed'],
  blocked: ['circle-pause', 'blocked'],
  cancelled: ['circle-minus', 'cancelled'],
};

export interface CardHandlers {
  toggle(): void;
  select(step: StepSummary): void;
  step(step: StepSummary, action: StepAction): void;
  plan(action: PlanAction): void;
  open(): void;
}

/** How a card is drawn: collapsed (the listing's line), or expanded with the plan as read. */
export interface CardState {
  readonly listed: ListedPlan;
  readonly detail: PlanDetail | undefined;
  /** The selected step's id (the related memories view follows it). */
  readonly selected: string | undefined;
  /** An action of this view is running (buttons are disabled until it settles). */
  readonly busy: boolean;
}

/**
 * One plan: its title, status and step counts; expanded, each step with its status icon, dependencies,
 * attempt and failure reason and the actions its status allows, the plan's own action, and its newest
 * progress entries. Listeners go through `owner`, so they end with the draw that made them.
 */
export function renderPlanCard(parent: HTMLElement, state: CardState, on: CardHandlers, owner: Component): void {
  const { listed, detail } = state;
  const card = parent.createDiv({ cls: 'agentm-plan', attr: { 'data-plan': listed.name } });
  const header = card.createDiv({ cls: 'agentm-plan-header' });
  setIcon(header.createSpan({ cls: 'agentm-plan-fold' }), detail ? 'chevron-down' : 'chevron-right');
  header.createSpan({ cls: 'agentm-plan-title', text: listed.title });
  header.createSpan({ cls: 'agentm-muted', text: ` ${listed.status ?? 'open'} · ${counts(listed)}` });
  owner.registerDomEvent(header, 'click', () => on.toggle());
  if (!detail) return;

  const bar = card.createDiv({ cls: 'agentm-plan-actions' });
  const button = (text: string, act: () => void, cls?: string) => {
    const el = bar.createEl('button', { text, ...(cls ? { cls } : {}) });
    el.disabled = state.busy;
    owner.registerDomEvent(el, 'click', (event) => {
      event.stopPropagation();
      act();
    });
    return el;
  };
  button('Open plan file', () => on.open());
  for (const action of planActions(detail))
    button(action === 'reopen' ? 'Reopen plan' : 'Cancel plan…', () => on.plan(action), 'mod-warning');

  for (const problem of detail.summary.problems) card.createDiv({ cls: 'agentm-plan-problem', text: problem });
  const steps = card.createDiv({ cls: 'agentm-plan-steps' });
  for (const step of detail.summary.steps) renderStep(steps, step, detail, state, on, owner);

  const recent = detail.summary.recent;
  if (recent.length > 0 || detail.summary.progressTail) {
    card.createDiv({ cls: 'agentm-plan-section agentm-muted', text: 'Latest progress' });
    const log = card.createDiv({ cls: 'agentm-plan-log' });
    for (const entry of [...recent].reverse()) renderEntry(log, entry, detail.name);
    if (recent.length === 0 && detail.summary.progressTail)
      log.createDiv({ cls: 'agentm-plan-entry', text: detail.summary.progressTail });
  }
}

function renderStep(
  parent: HTMLElement,
  step: StepSummary,
  detail: PlanDetail,
  state: CardState,
  on: CardHandlers,
  owner: Component,
): void {
  const row = parent.createDiv({
    cls: ['agentm-step', `agentm-step-${step.status}`, ...(state.selected === step.id ? ['is-selected'] : [])],
    attr: { 'data-step': step.id, 'data-status': step.status },
  });
  const [icon, word] = STATUS[step.status] ?? ['circle-help', `unknown symbol`];
  const iconEl = row.createSpan({ cls: 'agentm-step-icon', attr: { 'aria-label': word } });
  setIcon(iconEl, icon);
  const body = row.createDiv({ cls: 'agentm-step-body' });
  body.createDiv({ cls: 'agentm-step-title', text: step.title });
  const facts = [step.id, word];
  if (step.dependsOn.length > 0) facts.push(`after ${step.dependsOn.join(', ')}`);
  if (step.attempt > 0) facts.push(`attempt ${step.attempt}`);
  if (step.agent && step.status === 'running') facts.push(`by ${step.agent}`);
  body.createDiv({ cls: 'agentm-step-facts agentm-muted', text: facts.join(' · ') });
  const failure = detail.failures.steps.find((f) => f.id === step.id);
  if (failure) body.createDiv({ cls: 'agentm-step-failure', text: failure.reason });
  owner.registerDomEvent(row, 'click', () => on.select(step));
  const actions = stepActions(step);
  if (actions.length === 0) return;
  const bar = body.createDiv({ cls: 'agentm-step-actions' });
  for (const action of actions) {
    const el = bar.createEl('button', { text: STEP_ACTION_TEXT[action] });
    el.disabled = state.busy;
    owner.registerDomEvent(el, 'click', (event) => {
      event.stopPropagation();
      on.step(step, action);
    });
  }
}

function renderEntry(parent: HTMLElement, entry: ProgressEntry, plan: string): void {
  const el = parent.createDiv({ cls: 'agentm-plan-entry' });
  const when = entry.time.replace(/^\d{4}-\d{2}-\d{2}T/, '').replace(/\.\d+Z$|Z$/, '');
  const who = entry.step === `plan:${plan}` ? 'plan' : entry.step;
  el.createSpan({ cls: 'agentm-muted', text: `${when} ${who} ` });
  el.createSpan({ text: entry.text });
}

function counts(listed: ListedPlan): string {
  const entries = Object.entries(listed.counts ?? {}).filter(([, n]) => n > 0);
  return entries.length === 0 ? 'no steps' : entries.map(([status, n]) => `${n} ${status}`).join(', ');
}

import { NothingToDoError } from '../errors';
import { failureReason } from '../sources/plan-facts';
import type { PlanSource, PlanView } from '../sources/types';
import { planDescription } from '../views/presentation';
import { checkerFor, textResult, type NamedTool } from './tool-kit';

export const PLAN_STATUS_TOOL = 'agentm_plan_status';

export interface PlanStatusInput {
  readonly plan?: string;
}

/** One plan in full: its steps (status, dependencies, attempt, what runs, the last failure) and latest progress. */
export function renderPlan(plan: PlanView): string {
  const lines = [
    `Plan '${plan.name}'${plan.goal ? ` — goal: ${plan.goal}` : plan.title !== plan.name ? ` — ${plan.title}` : ''}`,
    `status: ${planDescription(plan)}`,
    `file: ${plan.planUri.fsPath}`,
    '',
    'Steps (id · status · attempt · depends on · runs):',
  ];
  for (const s of plan.steps) {
    const runs = s.cmd !== undefined ? `command \`${s.cmd}\`` : 'the model (its title is the goal)';
    lines.push(
      `- ${s.id} · ${s.status} · attempt ${s.attempt}${s.after.length ? ` · after ${s.after.join(', ')}` : ''} · ${runs}: ${s.title}`,
    );
    if (s.lastFailure && (s.status === 'failed' || s.status === 'ready'))
      lines.push(
        `  last failure (attempt ${s.lastFailure.attempt}): ${failureReason(s.lastFailure.reason).replace(/\n/g, '\n    ')}`,
      );
  }
  if (plan.steps.length === 0) lines.push('(no steps: the plan has no checklist items)');
  if (plan.progress.length) {
    lines.push('', 'Latest progress (newest first):');
    for (const e of plan.progress) lines.push(`- ${e.when} ${e.kind} (${e.step}): ${e.text.split('\n')[0]}`);
  }
  return lines.join('\n');
}

/** Plan status: the project's plans, and one plan's steps and progress (read-only). */
export function planStatusTool(packageJSON: unknown, plans: PlanSource): NamedTool<PlanStatusInput> {
  const check = checkerFor<PlanStatusInput>(packageJSON, PLAN_STATUS_TOOL);
  return {
    name: PLAN_STATUS_TOOL,
    prepareInvocation: (options) => ({
      invocationMessage: `Reading ${check(options.input).plan ? `plan '${options.input.plan}'` : 'the active plan'}`,
    }),
    async invoke(options) {
      const input = check(options.input);
      const state = await plans.read();
      if (state.kind === 'noProject') throw new NothingToDoError(`no AgentM project here: ${state.reason}`);
      if (state.kind === 'noPlan')
        return textResult(
          `Project '${state.project}' has no plan yet. A plan is a PLAN.md (or PLAN-<name>.md) checklist in the project's harness folder.`,
        );
      const wanted = input.plan ?? state.plans.find((p) => p.active)?.name ?? state.plans[0]!.name;
      const plan = state.plans.find((p) => p.name === wanted);
      if (!plan)
        throw new NothingToDoError(
          `project '${state.project}' has no plan '${wanted}'; its plans are: ${state.plans.map((p) => p.name).join(', ')}`,
        );
      const others = state.plans.filter((p) => p !== plan).map((p) => `- ${p.name}: ${planDescription(p)}`);
      return textResult(
        [
          `Project '${state.project}'.`,
          renderPlan(plan),
          ...(others.length ? ['', 'Other plans (pass "plan" to read one):', ...others] : []),
        ].join('\n'),
      );
    },
  };
}

import * as vscode from 'vscode';
import { CommandsNotApprovedError, PreflightError, type StepAction } from '@agentm/core/harness';
import { ActionableError, NothingToDoError } from '../errors';
import { PERSON } from '../sources/plan-runner';
import { VSCODE_MODEL_HINT } from '../sources/providers';
import type { PlanView } from '../sources/types';
import type { PlanNode } from '../views/plan-tree';
import type { CommandContext } from './context';
import { CONFIGURE_MODEL, offerFailedRun } from './run-failure';

const isNode = (arg: unknown): arg is PlanNode =>
  typeof arg === 'object' && arg !== null && 'plan' in arg && 'type' in arg;

async function allPlans(ctx: CommandContext): Promise<readonly PlanView[]> {
  const state = await ctx.sources.plans.read();
  if (state.kind === 'noProject') throw new NothingToDoError(`no AgentM project detected here: ${state.reason}`);
  if (state.kind === 'noPlan')
    throw new NothingToDoError(`project '${state.project}' has no plan yet; an agent writes PLAN.md when it plans`);
  return state.plans;
}

/** The plan a command acts on: the tree item it was invoked on, a plan name, or the active plan. */
async function targetPlan(ctx: CommandContext, arg: unknown): Promise<PlanView> {
  if (isNode(arg)) return arg.plan;
  const plans = await allPlans(ctx);
  const wanted = typeof arg === 'string' ? plans.find((p) => p.name === arg) : plans.find((p) => p.active);
  if (!wanted)
    throw new NothingToDoError(
      typeof arg === 'string'
        ? `there is no plan named '${arg}'; run "AgentM: Switch plan…" to see the plans`
        : 'no plan is active; run "AgentM: Switch plan…" first',
    );
  return wanted;
}

export async function switchPlan(ctx: CommandContext, arg?: unknown): Promise<string | undefined> {
  const source = ctx.sources.plans;
  let name = isNode(arg) ? arg.plan.name : typeof arg === 'string' ? arg : undefined;
  if (name === undefined) {
    const plans = await allPlans(ctx);
    const pick = await vscode.window.showQuickPick(
      plans.map((p) => ({
        label: p.title,
        description: [p.title === p.name ? '' : p.name, p.active ? 'active' : p.status].filter(Boolean).join(' · '),
        name: p.name,
      })),
      { title: 'AgentM: Switch plan', placeHolder: 'The plan this project works on' },
    );
    if (!pick) return undefined;
    name = pick.name;
  }
  await source.switchTo(name);
  ctx.planTree.refresh();
  return name;
}

export async function openPlan(ctx: CommandContext, arg?: unknown): Promise<string> {
  const plan = await targetPlan(ctx, arg);
  await vscode.window.showTextDocument(plan.planUri);
  return plan.planUri.toString();
}

export async function openProgress(ctx: CommandContext, arg?: unknown): Promise<string> {
  const plan = await targetPlan(ctx, arg);
  if (!plan.progressUri)
    throw new NothingToDoError(
      `plan '${plan.name}' has no progress file yet; it appears with the first step an agent runs`,
    );
  // The log grows at its end: show the latest entries (a failure's reason, the running step's output).
  const doc = await vscode.workspace.openTextDocument(plan.progressUri);
  const end = new vscode.Position(doc.lineCount - 1, 0);
  await vscode.window.showTextDocument(doc, { selection: new vscode.Range(end, end) });
  return plan.progressUri.toString();
}

/**
 * Run plan: the harness in this window, with a cancellable progress notification named by the plan's
 * goal (and the run status bar item), its commands' output live in the "AgentM run" channel. A run that
 * cannot start (a step needs a model and none is available; a program is not found; a command was
 * declined) is refused before anything is claimed, naming why, with the fix as buttons. A failed run is
 * an error notification with the failing step, its reason and what to do next.
 */
export async function runPlan(ctx: CommandContext, arg?: unknown): Promise<string> {
  const runner = ctx.sources.planRunner;
  const plan = await targetPlan(ctx, arg);
  const named = plan.title === plan.name ? `'${plan.name}'` : `'${plan.title}' (${plan.name})`;
  try {
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `AgentM: running ${named}`, cancellable: true },
      (progress, token) => runner.run(plan.name, progress, token),
    );
    if (outcome.ended === 'failed') offerFailedRun(ctx, plan.name, outcome);
    else ctx.funnel.notify('info', `AgentM: ${named}: ${outcome.summary}`);
    return outcome.summary;
  } catch (error) {
    throw refusal(error, plan);
  } finally {
    ctx.planTree.refresh();
  }
}

/** A run refused before it started, as a notification whose buttons are the fixes. */
function refusal(error: unknown, plan: PlanView): unknown {
  if (!(error instanceof PreflightError) && !(error instanceof CommandsNotApprovedError)) return error;
  const needsModel =
    error instanceof PreflightError && error.problems.some((p) => /needs a chat model/.test(p.problem));
  const actions = [
    ...(needsModel
      ? [
          {
            title: CONFIGURE_MODEL,
            run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'agentm.providers'),
          },
        ]
      : []),
    { title: 'Open plan', run: () => vscode.window.showTextDocument(plan.planUri) },
  ];
  return new ActionableError(`${error.message}${needsModel ? ` (${VSCODE_MODEL_HINT})` : ''}`, actions);
}

/**
 * Stop plan: the plan of the tree item or the name given; from the palette, the plan running in this
 * window (a quick pick when several run).
 */
export async function stopPlan(ctx: CommandContext, arg?: unknown): Promise<string | undefined> {
  const runner = ctx.sources.planRunner;
  let name: string | undefined;
  if (isNode(arg)) name = arg.plan.name;
  else if (typeof arg === 'string') name = arg;
  else {
    const running = ctx.runner.running;
    if (running.length === 0) throw new NothingToDoError('no plan is running in this window');
    name =
      running.length === 1
        ? running[0]
        : await vscode.window.showQuickPick([...running], { title: 'AgentM: Stop which plan?' });
    if (name === undefined) return undefined;
  }
  await runner.stop(name);
  ctx.funnel.notify('info', `AgentM: plan '${name}' stopped`);
  return name;
}

/** Retry failed step: from a step's context menu, with (plan, step) names, or a quick pick of the failed steps. */
export async function retryStep(ctx: CommandContext, arg?: unknown, stepArg?: unknown): Promise<string | undefined> {
  const runner = ctx.sources.planRunner;
  let plan: PlanView;
  let stepId: string;
  if (typeof arg === 'string' && typeof stepArg === 'string') {
    plan = await targetPlan(ctx, arg);
    stepId = stepArg;
  } else if (isNode(arg) && arg.type === 'step') {
    plan = arg.plan;
    stepId = arg.step.id;
  } else {
    plan = await targetPlan(ctx, arg);
    const failed = plan.steps.filter((s) => s.status === 'failed');
    if (failed.length === 0) throw new NothingToDoError(`plan '${plan.name}' has no failed step to retry`);
    const pick = await vscode.window.showQuickPick(
      failed.map((s) => ({ label: s.title, description: `${s.id} · attempt ${s.attempt}`, id: s.id })),
      { title: `AgentM: Retry a failed step of '${plan.name}'` },
    );
    if (!pick) return undefined;
    stepId = pick.id;
  }
  await runner.retry(plan.name, stepId);
  ctx.planTree.refresh();
  return stepId;
}

const STEP_ACTIONS: readonly { readonly label: string; readonly action: StepAction; readonly detail: string }[] = [
  { label: 'Start', action: 'start', detail: 'ready → running, claimed by you' },
  { label: 'Mark done', action: 'done', detail: 'running (or ready) → done' },
  { label: 'Mark failed…', action: 'failed', detail: 'running (or ready) → failed, with the reason' },
  { label: 'Add a note…', action: 'note', detail: 'a progress entry about the step; its status stays' },
];

/**
 * Update step… (a step's context menu, or `(plan, step, action, text)`): the workspace's `updateStep`, as
 * the person at this editor — core's state machine under the plan's lock and compare-and-swap. A step
 * an `agentm run` holds is refused (the run records it), as is a move to the status it already has.
 */
export async function updateStep(ctx: CommandContext, ...args: unknown[]): Promise<string | undefined> {
  const [arg, stepArg, actionArg, textArg] = args;
  const node = isNode(arg) && arg.type === 'step' ? arg : undefined;
  const plan = node ? node.plan : await targetPlan(ctx, arg);
  const step = node ? node.step.id : typeof stepArg === 'string' ? stepArg : undefined;
  if (step === undefined) throw new NothingToDoError('choose a step in the Plan view, then "Update step…"');
  let action = STEP_ACTIONS.find((a) => a.action === actionArg)?.action;
  action ??= (
    await vscode.window.showQuickPick(STEP_ACTIONS, { title: `AgentM: Update step '${step}' of ${plan.title}` })
  )?.action;
  if (!action) return undefined;
  let text = typeof textArg === 'string' ? textArg : undefined;
  if (text === undefined && (action === 'failed' || action === 'note')) {
    text = await vscode.window.showInputBox({
      title: `AgentM: ${action === 'failed' ? 'Why did it fail?' : 'Note on'} step '${step}'`,
      validateInput: (v) => (v.trim() === '' ? 'Say it in a few words' : undefined),
    });
    if (text === undefined) return undefined;
  }
  const result = await ctx.sources.plans.updateStep(
    { plan: plan.name, step, action, ...(text !== undefined ? { text } : {}) },
    { actor: PERSON },
  );
  ctx.planTree.refresh();
  const settled = result.planStatus ? `; the plan is now ${result.planStatus}` : '';
  ctx.funnel.notify('info', `AgentM: step '${step}' of ${plan.title}: ${result.from} → ${result.status}${settled}`);
  return result.status;
}

import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { planOption } from '../plan-option.js';
import { cliWorkspace } from '../workspace-cli.js';

/** A plan name from a goal: its first words, slugified, at most 40 characters. */
export async function planNameFromGoal(goal: string): Promise<string> {
  const { slugifyTitle } = await import('../../harness/plan/step-ids.js');
  return slugifyTitle(goal.split(/\s+/).slice(0, 6).join(' ')).slice(0, 40).replace(/-+$/, '');
}

export function registerPlan(program: Command, ctx: CliContext): void {
  program
    .command('plan')
    .description('turn a goal into a PLAN-<name>.md step DAG (through the LLM when configured; else one step)')
    .argument('<goal>', 'what the plan should achieve')
    .option('--name <name>', 'the plan name (default: from the goal)')
    .option('--json', 'print the planned steps and decisions as JSON')
    .action(async (goal: string, opts: { name?: string; json?: boolean }) => {
      if (goal.trim() === '') throw new CliError('plan: empty goal; say what the plan should achieve', EXIT_USAGE);
      const explicit = planOption(opts.name, '--name');
      // The harness, the planner and the chat client load here, when a plan is made (not for --help).
      const { PlanExistsError } = await import('../../harness/errors.js');
      const { plannerRetry } = await import('../../harness/planner/decompose.js');
      const { cliWaitingFor } = await import('../model-wait.js');
      const ws = await cliWorkspace(ctx);
      const harness = await ws.harness();
      const provider = await ws.chat();
      // Said before anything is written: without a model the plan is one step that only a model can do.
      if (!provider)
        ctx.io.err(
          'agentm plan: no chat model is configured, so the goal becomes one step for a model, and agentm run refuses it ' +
            'until there is one (agentm init, or AGENTM_LLM_BASE_URL and AGENTM_LLM_MODEL) — or until the step has a command ([cmd:: …])\n',
        );
      // A goal with no word to name it by (only punctuation) plans into PLAN.md, as before.
      const name = explicit ?? ((await planNameFromGoal(goal)) || 'PLAN');
      let planned: Awaited<ReturnType<typeof harness.plan>>;
      try {
        // The planner waits within one budget (every attempt), and that budget is what the progress line says.
        planned = provider
          ? await cliWaitingFor(ctx, provider, 'agentm plan', plannerRetry(provider).totalBudgetMs!, () =>
              harness.plan(goal, name, { provider }),
            )
          : await harness.plan(goal, name, {});
      } catch (error) {
        if (error instanceof PlanExistsError)
          throw new CliError(
            `a plan already exists at ${error.plan}: choose another --name, or remove that plan first`,
            EXIT_USAGE,
          );
        throw error;
      }
      const { files, draft } = planned;
      if (draft.fallbackReason && provider)
        ctx.io.err(`agentm plan: planned as a single step: ${draft.fallbackReason}\n`);
      if (opts.json) {
        ctx.io.out(
          `${JSON.stringify({ plan: files.planLabel, name: files.name, goal: draft.goal, fallbackReason: draft.fallbackReason ?? null, steps: draft.steps }, null, 2)}\n`,
        );
      } else {
        ctx.io.out(`wrote ${files.planLabel}\n`);
        for (const s of draft.steps)
          ctx.io.out(
            `  - [ ] ${s.title} [id:: ${s.id}]${s.dependsOn.length ? ` after ${s.dependsOn.join(', ')}` : ''} → ${s.role} (${s.action})\n`,
          );
      }
      // A planned step is a goal for a model (the planner writes no commands).
      if (!provider && !opts.json) {
        const listed = (await ws.listPlans({ summaries: false })).plans.find((p) => p.name === files.name);
        ctx.io.err(
          `agentm plan: to run it without a model, give each step its command: add [cmd:: <command>] to its line in ${listed?.planFile ?? files.planLabel}; ` +
            `then: agentm run${files.name === 'PLAN' ? '' : ` --plan ${files.name}`}\n`,
        );
      }
      ctx.exitCode = EXIT_OK;
    });
}

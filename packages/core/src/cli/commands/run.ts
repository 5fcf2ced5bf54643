import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { planOption } from '../plan-option.js';
import { printJson } from '../support.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cliWorkspace } from '../workspace-cli.js';

/** Exit code of a run interrupted by SIGINT/SIGTERM (the shell convention for SIGINT). */
export const EXIT_INTERRUPTED = 130;

interface RunFlags {
  plan?: string;
  once?: boolean;
  maxConcurrent?: number;
  tickInterval?: number;
  yes?: boolean;
  quiet?: boolean;
  json?: boolean;
  preflight?: boolean;
}

export function registerRun(program: Command, ctx: CliContext): void {
  program
    .command('run')
    .description(
      'run a plan: claim ready steps, execute them (cmd:: steps as commands, others through the LLM), until it is done or failed',
    )
    .option('--plan <name>', 'the plan (PLAN-<name>.md); default PLAN.md')
    .option('--once', 'one reconcile tick (waiting for the steps it starts), then exit')
    .option('--max-concurrent <n>', 'steps of this plan running at once (default 4)', (v) => Number.parseInt(v, 10))
    .option('--tick-interval <seconds>', 'safety-net tick period (default 30)', (v) => Number.parseFloat(v))
    .option(
      '--yes',
      "run every command of this run without asking, approved or not (the plan's and the model's run_command)",
    )
    .option('-q, --quiet', "no command output, only the run's terse lines")
    .option('--json', 'print the outcome as JSON on stdout (steps, failures, the retry command)')
    .option('--no-preflight', 'start without checking first that every step can run (programs found, a model)')
    .action(async (opts: RunFlags) => {
      if (opts.maxConcurrent !== undefined && !(opts.maxConcurrent > 0))
        throw new CliError('--max-concurrent must be a positive whole number', EXIT_USAGE);
      if (opts.tickInterval !== undefined && !(opts.tickInterval > 0))
        throw new CliError('--tick-interval must be a positive number of seconds', EXIT_USAGE);
      const plan = planOption(opts.plan);
      // The harness, the chat client and the run's views load here, when a plan runs (not for --help).
      const { DEFAULT_MODEL_RETRY } = await import('../../harness/inner-loop/tool-loop.js');
      const { PreflightError } = await import('../../harness/executors/preflight.js');
      const { terminalAsker } = await import('../command-trust.js');
      const { cliChatShowingWait } = await import('../model-wait.js');
      const { printFailure, retryCommand, runOutcome } = await import('../run-report.js');
      const { runView } = await import('../run-view.js');
      const ws = await cliWorkspace(ctx);
      if (plan === undefined) await refuseWithoutActivePlan(ws);
      const harness = await ws.harness();
      const mode = opts.quiet ? 'quiet' : ctx.term.err.tty ? 'live' : 'plain';
      // A model turn in a run is often long; say so after 5 s, not 1. The live view shows each step's
      // elapsed time itself (a second spinner on the same terminal would garble both).
      const provider =
        mode === 'live'
          ? await ws.chat()
          : await cliChatShowingWait(ctx, ws, 'agentm run', DEFAULT_MODEL_RETRY.perCallTimeoutMs, 5000);
      const ask = terminalAsker(ctx);
      const view = runView(ctx, mode);
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      let result;
      try {
        result = await harness.run({
          plan,
          provider,
          consent: { yes: opts.yes === true, ...(ask ? { ask } : {}) },
          preflight: opts.preflight !== false,
          once: opts.once,
          signal: controller.signal,
          maxConcurrent: opts.maxConcurrent,
          tickIntervalMs: opts.tickInterval ? opts.tickInterval * 1000 : undefined,
          log: view.log,
          ...(view.onOutput ? { onOutput: view.onOutput } : {}),
          ...(view.onStep ? { onStep: view.onStep } : {}),
        });
      } catch (error) {
        view.close();
        if (error instanceof PreflightError && opts.json)
          printJson(ctx, { plan: error.plan, status: 'not started', problems: error.problems });
        throw error;
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
      view.close();
      const status = result.stopped ? 'stopped' : result.terminal || 'not finished';
      const { steps, failure } = await runOutcome(result.files);
      const explicit = plan !== undefined;
      if (opts.json) {
        printJson(ctx, {
          plan: result.name,
          status,
          steps,
          failed: failure.steps,
          ...(failure.planReason ? { reason: failure.planReason } : {}),
          retry: status === 'failed' ? (retryCommand(result.name, explicit, failure) ?? null) : null,
        });
      } else {
        if (status === 'failed') printFailure(ctx, result.name, explicit, failure);
        const colour = status === 'done' ? 'green' : status === 'failed' || status === 'cancelled' ? 'red' : 'yellow';
        ctx.term.out.line(
          `plan ${result.name}: `,
          [colour, status],
          result.stopped ? ' (running steps were released for a retry)' : '',
        );
      }
      ctx.exitCode = result.stopped
        ? EXIT_INTERRUPTED
        : status === 'failed' || status === 'cancelled'
          ? EXIT_CHECK_FAILED
          : EXIT_OK;
    });
}

/**
 * Without `--plan`, the active plan runs (`.harness/active-plan`, else PLAN.md). When only named plans
 * exist, say how to run each (by name, with its title) and how to make one the active plan, instead of
 * failing on a PLAN.md nobody wrote.
 */
async function refuseWithoutActivePlan(ws: Workspace): Promise<void> {
  if ((await ws.project()) === undefined) return;
  const listing = await ws.listPlans();
  if (listing.bindingError || listing.plans.length === 0 || listing.plans.some((p) => p.active)) return;
  const runs = listing.plans.map((p) => `  agentm run --plan ${p.name}${p.title !== p.name ? `   # ${p.title}` : ''}`);
  throw new CliError(
    `no active plan: ${listing.active?.planFile ?? 'PLAN.md'} does not exist. Run one of the plans here by name:\n` +
      `${runs.join('\n')}\nor make one the active plan: agentm switch <name>`,
    EXIT_USAGE,
  );
}

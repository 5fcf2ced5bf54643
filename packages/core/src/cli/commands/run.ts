import type { Command } from 'commander';
import { DEFAULT_MODEL_RETRY } from '../../harness/inner-loop/tool-loop.js';
import type { CliContext } from '../context.js';
import { approvePlanCommands, terminalAsker } from '../command-trust.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { cliChatShowingWait } from '../model-wait.js';
import { planOption } from '../plan-option.js';
import { cliWorkspace } from '../workspace-cli.js';

/** Exit code of a run interrupted by SIGINT/SIGTERM (the shell convention for SIGINT). */
export const EXIT_INTERRUPTED = 130;

interface RunFlags {
  plan?: string;
  once?: boolean;
  maxConcurrent?: number;
  tickInterval?: number;
  yes?: boolean;
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
    .action(async (opts: RunFlags) => {
      if (opts.maxConcurrent !== undefined && !(opts.maxConcurrent > 0))
        throw new CliError('--max-concurrent must be a positive whole number', EXIT_USAGE);
      if (opts.tickInterval !== undefined && !(opts.tickInterval > 0))
        throw new CliError('--tick-interval must be a positive number of seconds', EXIT_USAGE);
      const plan = planOption(opts.plan);
      const ws = await cliWorkspace(ctx);
      const harness = await ws.harness();
      // A model turn in a run is often long; say so after 5 s, not 1.
      const provider = await cliChatShowingWait(ctx, ws, 'agentm run', DEFAULT_MODEL_RETRY.perCallTimeoutMs, 5000);
      const ask = terminalAsker(ctx);
      const log = (line: string) => ctx.io.err(`agentm run: ${line}\n`);
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      try {
        const result = await harness.run({
          plan,
          provider,
          consent: { yes: opts.yes === true, ...(ask ? { ask } : {}) },
          beforeStart: approvePlanCommands,
          once: opts.once,
          signal: controller.signal,
          maxConcurrent: opts.maxConcurrent,
          tickIntervalMs: opts.tickInterval ? opts.tickInterval * 1000 : undefined,
          log,
        });
        if (result.stopped) {
          ctx.io.out(`plan ${result.name}: stopped (running steps were released for a retry)\n`);
          ctx.exitCode = EXIT_INTERRUPTED;
        } else {
          ctx.io.out(`plan ${result.name}: ${result.terminal || 'not finished'}\n`);
          ctx.exitCode = result.terminal === 'failed' || result.terminal === 'cancelled' ? EXIT_CHECK_FAILED : EXIT_OK;
        }
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
      }
    });
}

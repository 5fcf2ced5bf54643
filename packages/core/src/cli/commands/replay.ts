import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_OK } from '../errors.js';
import { planOption } from '../plan-option.js';
import { cliWorkspace } from '../workspace-cli.js';

export function registerReplay(program: Command, ctx: CliContext): void {
  program
    .command('replay')
    .description(
      "re-drive the reconciler over a plan's recorded DAG with a no-op executor and compare the dispatch order",
    )
    .option('--plan <name>', 'the plan (PLAN-<name>.md); default PLAN.md')
    .option('--json', 'print the comparison as JSON')
    .action(async (opts: { plan?: string; json?: boolean }) => {
      const { readTrace } = await import('../../harness/trace/read-trace.js');
      const { replayTrace } = await import('../../harness/trace/replay.js');
      const { files } = await (await (await cliWorkspace(ctx)).harness()).planFiles(planOption(opts.plan));
      const { trace, doc, found } = await readTrace(files);
      if (!found)
        throw new CliError(
          `no plan at ${files.planLabel} and no progress log at ${files.progressLabel}`,
          EXIT_CHECK_FAILED,
        );
      const result = await replayTrace(trace, doc);
      if (opts.json) ctx.io.out(`${JSON.stringify({ plan: trace.plan, ...result }, null, 2)}\n`);
      else {
        ctx.io.out(`recorded: ${result.recorded.join(', ') || '(nothing dispatched)'}\n`);
        ctx.io.out(`replayed: ${result.replayed.join(', ') || '(nothing dispatched)'}\n`);
        if (result.determinism.deterministic) ctx.io.out('deterministic: yes (the DAG fixes the dispatch order)\n');
        else {
          ctx.io.out(`deterministic: no (${result.determinism.reason})\n`);
          for (const wave of result.determinism.ambiguousWaves) ctx.io.out(`  same wave: ${wave.join(', ')}\n`);
        }
        ctx.io.out(
          `reproduced: ${result.reproduced ? 'yes' : 'no'}${result.determinism.deterministic ? '' : ' (compared as sets: advisory)'}\n`,
        );
      }
      ctx.exitCode = result.reproduced ? EXIT_OK : EXIT_CHECK_FAILED;
    });
}

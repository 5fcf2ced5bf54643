import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_OK } from '../errors.js';
import { planOption } from '../plan-option.js';
import { cliWorkspace } from '../workspace-cli.js';

export function registerTrace(program: Command, ctx: CliContext): void {
  program
    .command('trace')
    .description("show a plan's timeline (status changes and observations from its progress log) with metrics")
    .option('--plan <name>', 'the plan (PLAN-<name>.md); default PLAN.md')
    .option('--json', 'print the trace as JSON')
    .action(async (opts: { plan?: string; json?: boolean }) => {
      const { readTrace } = await import('../../harness/trace/read-trace.js');
      const { computeMetrics } = await import('../../harness/trace/metrics.js');
      const { renderTrace } = await import('../../harness/trace/render.js');
      const { files } = await (await (await cliWorkspace(ctx)).harness()).planFiles(planOption(opts.plan));
      const { trace, found } = await readTrace(files);
      if (!found)
        throw new CliError(
          `no plan at ${files.planLabel} and no progress log at ${files.progressLabel}`,
          EXIT_CHECK_FAILED,
        );
      if (opts.json) {
        const steps = trace.steps.map((s) => ({
          id: s.id,
          title: s.title,
          status: s.finalStatus,
          transitions: s.transitions.length,
          observations: s.observations.length,
        }));
        ctx.io.out(
          `${JSON.stringify({ plan: trace.plan, goal: trace.goal, status: trace.finalStatus, metrics: computeMetrics(trace), steps, timeline: trace.events }, null, 2)}\n`,
        );
      } else ctx.io.out(renderTrace(trace, ctx.term.out.tty ? { width: ctx.term.out.columns } : {}));
      ctx.exitCode = EXIT_OK;
    });
}

import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { planOption } from '../plan-option.js';
import { planFlag } from '../shell-quote.js';
import { cliSecrets, printJson } from '../support.js';
import { cliWorkspace } from '../workspace-cli.js';

/** Who retries, as the progress log names the actor: `ann (agentm retry)`. */
function person(): string {
  try {
    return `${userInfo().username} (agentm retry)`;
  } catch {
    return 'agentm retry';
  }
}

/**
 * `agentm retry <step...>`: failed → ready with the attempt bumped, the plan reopened, each transition
 * logged (core's `harness.retry`, the same function as VS Code's *Retry failed step*).
 */
export function registerRetry(program: Command, ctx: CliContext): void {
  program
    .command('retry')
    .description('put failed steps back in the queue (attempt + 1, plan reopened); the next agentm run runs them')
    .argument('[steps...]', 'the ids of the failed steps (agentm trace lists them)')
    .option('--plan <name>', 'the plan (PLAN-<name>.md); default: the active plan, else PLAN.md')
    .option('--all-failed', 'every failed step of the plan')
    .option('--json', 'print the retried steps as JSON')
    .action(async (steps: string[], opts: { plan?: string; allFailed?: boolean; json?: boolean }) => {
      const plan = planOption(opts.plan);
      const harness = await (await cliWorkspace(ctx)).harness();
      const secrets = await cliSecrets(ctx);
      let ids = steps;
      if (opts.allFailed || ids.length === 0) {
        const { files } = await harness.planFiles(plan, { secrets });
        const snap = await files.readPlan();
        const { parsePlan } = await import('../../harness/plan/plan-document.js');
        const { effectiveStatus } = await import('../../harness/plan/plan-edit.js');
        const doc = snap ? parsePlan(snap.text) : undefined;
        const failed = doc ? doc.steps.filter((s) => effectiveStatus(doc, s) === 'failed').map((s) => s.id) : [];
        if (!opts.allFailed)
          throw new CliError(
            failed.length > 0
              ? `name the step(s) to retry: failed in plan ${files.name}: ${failed.join(', ')} (or --all-failed)`
              : `name the step(s) to retry (plan ${files.name} has no failed step)`,
            EXIT_USAGE,
          );
        if (ids.length > 0) throw new CliError('give step ids or --all-failed, not both', EXIT_USAGE);
        if (failed.length === 0) {
          ctx.io.err(`agentm retry: plan ${files.name} has no failed step\n`);
          if (opts.json) printJson(ctx, { plan: files.name, retried: [], reopened: false });
          ctx.exitCode = EXIT_CHECK_FAILED;
          return;
        }
        ids = failed;
      }
      const result = await harness.retry(plan, ids, { actor: person(), secrets });
      const name = result.files.name;
      if (opts.json) {
        printJson(ctx, { plan: name, retried: result.steps, reopened: result.reopened });
      } else {
        for (const s of result.steps)
          ctx.term.out.line(
            ['green', '↻'],
            ` ${s.id}`,
            ['dim', ` ${s.title}`],
            ` is ready again (attempt ${s.attempt})`,
          );
        if (result.reopened) ctx.io.out(`plan ${name} reopened\n`);
        ctx.io.out(`run it: agentm run${planFlag(name, plan !== undefined)}\n`);
      }
      ctx.exitCode = EXIT_OK;
    });
}

import type { Command } from 'commander';
import type { ConsolidationProgress, ConsolidationReport } from '../../memory/consolidation/consolidate.js';
import { ProgressBar } from '../ui/progress-bar.js';
import { isSafeSegment } from '../../routing/slug.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { cliWorkspace } from '../workspace-cli.js';

export function registerConsolidate(program: Command, ctx: CliContext): void {
  program
    .command('consolidate')
    .description(
      "distil new progress episodes into beliefs: reinforce or create, decay and prune, advance the project's watermark",
    )
    .option(
      '--project <slug>',
      'the project (default: the project of the current directory, else every project with a _harness/ folder)',
    )
    .option('--all-projects', 'every project with a _harness/ folder')
    .option('--dry-run', 'decide and report, write nothing')
    .option('--json', 'print the reports as JSON')
    .action(async (flags: { project?: string; allProjects?: boolean; dryRun?: boolean; json?: boolean }) => {
      if (flags.project !== undefined && !isSafeSegment(flags.project))
        throw new CliError(
          `--project must be one project slug (no /, \\ or ..), got ${JSON.stringify(flags.project)}`,
          EXIT_USAGE,
        );
      const ws = await cliWorkspace(ctx);
      const here = flags.project ?? (flags.allProjects ? undefined : (await ws.project())?.slug);
      const projects = here !== undefined ? [here] : await ws.projectsWithHarness();
      const reports: ConsolidationReport[] = [];
      const progress = new ProgressBar(ctx.term.err, 'consolidate');
      try {
        for (const [i, project] of projects.entries()) {
          const which = projects.length > 1 ? ` (${i + 1}/${projects.length})` : '';
          const onProgress = (p: ConsolidationProgress) =>
            progress.update({
              phase: `${project}${which} ${p.phase}`,
              done: p.done,
              total: p.total,
              unit: p.phase === 'distilling' ? 'clusters' : 'beliefs',
            });
          reports.push(await ws.consolidate({ project, dryRun: flags.dryRun === true, onProgress }));
        }
      } finally {
        progress.done();
      }
      for (const r of reports) for (const w of r.warnings) ctx.io.err(`agentm: warning: ${r.project}: ${w}\n`);
      if (flags.json) ctx.io.out(`${JSON.stringify(reports, null, 2)}\n`);
      else if (reports.length === 0) ctx.io.out('nothing to consolidate: no project has a _harness/ folder\n');
      else for (const r of reports) ctx.io.out(summaryLine(r));
      ctx.exitCode = EXIT_OK;
    });
}

function summaryLine(r: ConsolidationReport): string {
  const head = `${r.project}${r.dryRun ? ' (dry run)' : ''}: ${r.episodes} new episode(s) in ${r.clusters} cluster(s)`;
  return `${head} → created ${r.created.length}, reinforced ${r.reinforced.length}, decayed ${r.decayed.length}, pruned ${r.pruned.length}\n`;
}

import type { Command } from 'commander';
import { Locator } from '../../seam/locator.js';
import { consolidate, DEFAULT_LAYOUT, watermarkLocatorFor, type ConsolidationReport } from '../../memory/engine.js';
import type { CliContext } from '../context.js';
import { EXIT_OK } from '../errors.js';
import { cliProviders } from '../memory-cli.js';
import { beliefStore, memoryStore } from './memory-stopgap.js';

export function registerConsolidate(program: Command, ctx: CliContext): void {
  program
    .command('consolidate')
    .description("distil new progress episodes into beliefs: reinforce or create, decay and prune, advance the project's watermark")
    .option('--project <slug>', 'one project (default: every project with a _harness/ folder)')
    .option('--dry-run', 'decide and report, write nothing')
    .option('--json', 'print the reports as JSON')
    .action(async (flags: { project?: string; dryRun?: boolean; json?: boolean }) => {
      const { backend } = await memoryStore(ctx.io.env);
      const { chat, embedder } = cliProviders(ctx.io.env);
      const space = DEFAULT_LAYOUT.projectSpaces[0]!;
      const projects = flags.project ? [flags.project] : (await backend.list(new Locator(space))).map((l) => l.name).filter((n) => !n.startsWith('.'));
      const reports: ConsolidationReport[] = [];
      for (const project of projects) {
        if (!flags.project && !(await backend.exists(new Locator(space).child(project, '_harness')))) continue;
        reports.push(await consolidate({ backend, project, beliefs: beliefStore(backend, space), watermark: watermarkLocatorFor(project, space), chat, embedder, dryRun: flags.dryRun === true }));
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

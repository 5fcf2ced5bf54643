import type { Command } from 'commander';
import { consolidate, noteBeliefStore, type ConsolidationReport } from '../../memory/engine.js';
import { memoryLayoutFromConfig } from '../../memory/documents/layout-config.js';
import { probeProjectLocator, projectsSpaceRungs } from '../../routing/resolve-project.js';
import { isSafeSegment } from '../../routing/slug.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Locator } from '../../seam/locator.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { cliProviders, memoryStore, projectHere, type MemoryStore } from '../memory-cli.js';

/** Every project with a `_harness/` folder, in each projects space (the probe's rungs), each slug once. */
async function projectsWithHarness(store: MemoryStore): Promise<string[]> {
  const found = new Set<string>();
  for (const rung of projectsSpaceRungs(store.config)) {
    let children: Locator[];
    try {
      children = await store.backend.list(store.backend.resolve(rung.path));
    } catch (error) {
      if (error instanceof NotFoundError) continue;
      throw error;
    }
    for (const child of children) {
      if (child.name.startsWith('.') || child.name.startsWith('_') || found.has(child.name)) continue;
      if (await store.backend.exists(child.child('_harness'))) found.add(child.name);
    }
  }
  return [...found].sort();
}

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
      const store = await memoryStore(ctx);
      const { chat, embedder } = await cliProviders(ctx);
      const here = flags.project ?? (flags.allProjects ? undefined : (await projectHere(ctx, store)).slug);
      const projects = here !== undefined ? [here] : await projectsWithHarness(store);
      const layout = memoryLayoutFromConfig(store.config);
      const beliefs = noteBeliefStore(store.backend, { config: store.config });
      const reports: ConsolidationReport[] = [];
      for (const project of projects) {
        const { locator } = await probeProjectLocator(store.backend, project, store.config);
        const watermark = locator.child('_harness', 'consolidation.json');
        reports.push(
          await consolidate({
            backend: store.backend,
            project,
            beliefs,
            watermark,
            layout,
            chat,
            embedder,
            dryRun: flags.dryRun === true,
          }),
        );
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

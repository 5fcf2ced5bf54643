import type { Command } from 'commander';
import { recall } from '../../memory/engine.js';
import { memorySettingsFromConfig } from '../../memory/memory-config.js';
import type { CliContext } from '../context.js';
import { EXIT_CHECK_FAILED, EXIT_OK } from '../errors.js';
import { memoryStore, openCliIndex, parseDuration, parsePositiveInt, projectHere } from '../memory-cli.js';

interface RecallFlags {
  project?: string;
  allProjects?: boolean;
  k?: string;
  kinds?: string;
  window?: string;
  halfLife?: string;
  json?: boolean;
  refresh?: boolean;
}

export function registerRecall(program: Command, ctx: CliContext): void {
  program
    .command('recall')
    .description('find memories: BM25 relevance (plus embeddings when configured) blended with recency')
    .argument('<text>', 'what to look for')
    .option('--project <slug>', "the project's notes plus global ones (default: the project of the current directory)")
    .option('--all-projects', 'every project, not only the current one')
    .option('--k <n>', 'number of results', '10')
    .option('--kinds <list>', 'only these kinds, comma-separated (e.g. fix,convention,episode)')
    .option('--window <duration>', 'only memories updated within this time (e.g. 7d)')
    .option(
      '--half-life <duration>',
      'recency half-life of every memory (default: 30d for notes, config memory.recall.note_half_life; 1h for harness-log entries)',
    )
    .option('--json', 'print the result as JSON')
    .option('--no-refresh', 'use the index as it is (faster on a large vault; edits since the last reindex are missed)')
    .action(async (text: string, flags: RecallFlags) => {
      const k = parsePositiveInt(flags.k ?? '10', '--k');
      const window = flags.window ? parseDuration(flags.window, '--window') : undefined;
      const halfLife = flags.halfLife ? parseDuration(flags.halfLife, '--half-life') : undefined;
      const kinds = flags.kinds
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const store = await memoryStore(ctx);
      const noteHalfLife = halfLife ?? memorySettingsFromConfig(store.config).noteHalfLife;
      const project = flags.allProjects ? undefined : (flags.project ?? (await projectHere(ctx, store)).slug);
      const { index } = await openCliIndex(ctx, store);
      const refreshed = flags.refresh === false && index.loadStatus === 'loaded' ? undefined : await index.refresh();
      const result = await recall(index, { text, project, k, window, halfLife, noteHalfLife, kinds });
      const warnings = [...(refreshed?.warnings ?? []), ...result.warnings];
      for (const w of warnings) ctx.io.err(`agentm: warning: ${w}\n`);
      if (flags.json) {
        ctx.io.out(
          `${JSON.stringify({ project: project ?? null, mode: result.mode, warnings, items: result.items }, null, 2)}\n`,
        );
      } else if (result.items.length === 0) {
        ctx.io.err(
          `agentm: no memory matches ${JSON.stringify(text)}${project ? ` in project ${project} (or the global notes)` : ''}\n`,
        );
      } else {
        result.items.forEach((item, i) => {
          ctx.io.out(`${i + 1}. ${item.title}  [${item.kind}] ${item.locator}\n`);
          ctx.io.out(
            `   score ${item.score.toFixed(3)} (similarity ${item.similarity.toFixed(3)}, recency ${item.recency.toFixed(3)})\n`,
          );
          if (item.snippet) ctx.io.out(`   ${item.snippet}\n`);
        });
      }
      ctx.exitCode = result.items.length > 0 ? EXIT_OK : EXIT_CHECK_FAILED;
    });
}

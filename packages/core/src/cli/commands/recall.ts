import { Option, type Command } from 'commander';
import type { CliContext } from '../context.js';
import { recallAction, type RecallFlags } from './recall-action.js';

export function registerRecall(program: Command, ctx: CliContext): void {
  program
    .command('recall')
    .description('find memories: BM25 relevance (plus embeddings when configured) blended with recency')
    .argument('<text>', 'what to look for')
    .option('--project <slug>', "the project's notes plus global ones (default: the project of the current directory)")
    .option('--all-projects', 'every project, not only the current one')
    .option('-n, --limit <n>', 'number of results (default 10)')
    .addOption(new Option('--k <n>', 'number of results (old spelling of --limit)').hideHelp())
    .option('--kinds <list>', 'only these kinds, comma-separated (e.g. fix,convention,episode)')
    .option('--window <duration>', 'only memories updated within this time (e.g. 7d)')
    .option(
      '--half-life <duration>',
      'recency half-life of every memory (default: 30d for notes, config memory.recall.note_half_life; 1h for harness-log entries)',
    )
    .option('--json', 'print the result as JSON')
    .option('--no-refresh', 'use the index as it is (faster on a large vault; edits since the last reindex are missed)')
    .action((text: string, flags: RecallFlags) => recallAction(ctx, text, flags));
}

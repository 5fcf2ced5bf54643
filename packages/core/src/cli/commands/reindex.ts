import { Option, type Command } from 'commander';
import { setPriority } from 'node:os';
import type { CliContext } from '../context.js';
import { EXIT_OK } from '../errors.js';
import { cliWorkspace } from '../workspace-cli.js';
import type { IndexProgress } from '../../memory/indexing/index-types.js';
import { ProgressBar } from '../ui/progress-bar.js';

export function registerReindex(program: Command, ctx: CliContext): void {
  program
    .command('reindex')
    .description('bring the memory index (in the user cache dir) up to date with the notes; --full rebuilds it')
    .option('--full', 'rebuild from scratch instead of re-reading only what changed')
    .option('--json', 'print the report as JSON')
    .addOption(new Option('--background', 'the background refresh a recall starts: quiet, one at a time').hideHelp())
    .action(async (flags: { full?: boolean; json?: boolean; background?: boolean }) => {
      if (flags.background) {
        await backgroundRefresh(ctx);
        return;
      }
      const started = Date.now();
      const index = await (await cliWorkspace(ctx)).index();
      const progress = new ProgressBar(ctx.term.err, 'reindex');
      const onProgress = (p: IndexProgress) => progress.update({ ...p, unit: 'files', counted: p.phase === 'reading' });
      let report;
      try {
        report = flags.full ? await index.rebuild(undefined, { onProgress }) : await index.refresh({ onProgress });
      } finally {
        progress.done();
      }
      for (const w of report.warnings) ctx.io.err(`agentm: warning: ${w}\n`);
      for (const e of report.errors) ctx.io.err(`agentm: skipped ${e.key}: ${e.message}\n`);
      if (flags.json) {
        ctx.io.out(
          `${JSON.stringify({ indexDir: index.dir, ...report, rebuilt: report.rebuilt ?? null, ms: Date.now() - started }, null, 2)}\n`,
        );
      } else {
        const how = report.rebuilt
          ? `rebuilt (${report.rebuilt === 'requested' ? '--full' : `index was ${report.rebuilt}`})`
          : 'updated';
        ctx.io.out(
          `index ${how}: ${report.documents} documents; read ${report.read} file(s), re-indexed ${report.indexed}, ` +
            `removed ${report.removed}, unchanged ${report.unchanged} (${Date.now() - started} ms)\n`,
        );
        if (report.conflictCopies.length > 0)
          ctx.io.out(`not indexed (sync conflict copies): ${report.conflictCopies.join(', ')}\n`);
        ctx.io.out(`index directory: ${index.dir}\n`);
      }
      ctx.exitCode = EXIT_OK;
    });
}

/**
 * `agentm reindex --background`, started detached by a recall that answered without walking: a full walk
 * (finding the edits other programs made in place) at a low priority, unless another background refresh
 * of the index is running. Prints nothing (nobody reads it); the index says what it did (its marks).
 */
async function backgroundRefresh(ctx: CliContext): Promise<void> {
  try {
    setPriority(10);
  } catch {
    // not allowed here: run at the normal priority
  }
  const { asBackgroundRefresher } = await import('../../memory/indexing/background-refresh.js');
  const index = await (await cliWorkspace(ctx, { service: false, createRoot: false })).index();
  await asBackgroundRefresher(index, () => index.refresh());
  ctx.exitCode = EXIT_OK;
}

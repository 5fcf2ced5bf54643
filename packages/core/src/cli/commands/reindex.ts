import type { Command } from 'commander';
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
    .action(async (flags: { full?: boolean; json?: boolean }) => {
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

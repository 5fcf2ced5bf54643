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
      let embedded;
      try {
        report = flags.full ? await index.rebuild(undefined, { onProgress }) : await index.refresh({ onProgress });
        embedded = await index.embeddings?.run({
          onProgress: (p) => progress.update({ ...p, unit: 'notes', counted: true }),
        });
      } finally {
        progress.done();
      }
      for (const w of [...report.warnings, ...(embedded?.warnings ?? [])]) ctx.io.err(`agentm: warning: ${w}\n`);
      for (const e of report.errors) ctx.io.err(`agentm: skipped ${e.key}: ${e.message}\n`);
      if (flags.json) {
        const embeddings = embedded ? { embedded: embedded.embedded, pending: embedded.pending } : null;
        ctx.io.out(
          `${JSON.stringify({ indexDir: index.dir, ...report, rebuilt: report.rebuilt ?? null, embeddings, ms: Date.now() - started }, null, 2)}\n`,
        );
      } else {
        const how = report.rebuilt
          ? `rebuilt (${report.rebuilt === 'requested' ? '--full' : `index was ${report.rebuilt}`})`
          : 'updated';
        ctx.io.out(
          `index ${how}: ${report.documents} documents; read ${report.read} file(s), re-indexed ${report.indexed}, ` +
            `removed ${report.removed}, unchanged ${report.unchanged} (${Date.now() - started} ms)\n`,
        );
        if (embedded?.busy) ctx.io.out('embeddings: another process is computing them\n');
        else if (embedded)
          ctx.io.out(
            `embeddings: ${embedded.embedded} note(s) embedded${embedded.pending > 0 ? `, ${embedded.pending} still without a vector` : ''}\n`,
          );
        if (report.conflictCopies.length > 0)
          ctx.io.out(`not indexed (sync conflict copies): ${report.conflictCopies.join(', ')}\n`);
        ctx.io.out(`index directory: ${index.dir}\n`);
      }
      ctx.exitCode = EXIT_OK;
    });
}

/**
 * `agentm reindex --background`, started detached by an answer that did not walk: at a low priority, the
 * full walk when one is due (finding the edits other programs made in place), the journal folded into a
 * new snapshot when it holds changes (`MemoryIndex.compact`), then the embeddings the notes lack —
 * unless another background refresh of the index is running. Prints nothing (nobody reads it); the
 * index says what it did (its marks, its vectors; a failing endpoint, shown by the next answer).
 */
async function backgroundRefresh(ctx: CliContext): Promise<void> {
  try {
    setPriority(10);
  } catch {
    // not allowed here: run at the normal priority
  }
  const { asBackgroundRefresher } = await import('../../memory/indexing/background-refresh.js');
  const { DEFAULT_REVALIDATE_AFTER_MS, memorySettingsFromConfig } = await import('../../memory/memory-config.js');
  const ws = await cliWorkspace(ctx, { service: false, createRoot: false });
  const index = await ws.index();
  const after = memorySettingsFromConfig(ws.config).revalidateAfterMs ?? DEFAULT_REVALIDATE_AFTER_MS;
  await asBackgroundRefresher(index, async () => {
    // The walk when it is due (or the index is not built yet), then the vectors the notes still lack.
    if (index.loadStatus !== 'loaded' || index.revalidationDue(after)) await index.refresh();
    // The changes answers appended to the journal, folded into the snapshot: the next answer replays none.
    await index.compact();
    if (index.embeddings?.behind()) await index.embeddings.run({ background: true });
  });
  ctx.exitCode = EXIT_OK;
}

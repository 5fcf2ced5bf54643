import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { EXIT_OK } from '../errors.js';
import { cliWorkspace } from '../workspace-cli.js';
import { ProgressBar } from '../ui/progress-bar.js';
import type { CopyReport } from '../../workspace/store-copy.js';

/**
 * `agentm export --to <folder>` and `agentm import --from <folder>`: the store to and from a vault's
 * memory root, byte for byte (a team's database store read in Obsidian; a vault loaded into one). Both
 * are idempotent and resumable; a terminal gets a progress bar on stderr.
 */
export function registerTransfer(program: Command, ctx: CliContext): void {
  program
    .command('export')
    .description("write the store into a folder as a vault's memory root, every note byte-identical (for Obsidian)")
    .requiredOption('--to <folder>', 'the folder (created when missing); files that differ there are replaced')
    .option('--json', 'print the report as JSON')
    .action(async (opts: { to: string; json?: boolean }) => {
      await transfer(ctx, 'export', opts.json === true, (ws, onProgress) => ws.exportTo(opts.to, { onProgress }));
    });
  program
    .command('import')
    .description(
      "load a vault's memory root into the store; run it again to resume or to check (nothing is copied twice)",
    )
    .requiredOption(
      '--from <folder>',
      "the vault's memory root: the folder holding memory/ and desk/ (e.g. <vault>/Agent)",
    )
    .option('--replace', 'replace notes that differ in the store (else they are kept and listed)')
    .option('--json', 'print the report as JSON')
    .action(async (opts: { from: string; replace?: boolean; json?: boolean }) => {
      await transfer(ctx, 'import', opts.json === true, (ws, onProgress) =>
        ws.importFrom(opts.from, { onProgress, replaceDiffering: opts.replace === true }),
      );
    });
}

type Workspace = Awaited<ReturnType<typeof cliWorkspace>>;

async function transfer(
  ctx: CliContext,
  verb: 'export' | 'import',
  json: boolean,
  run: (ws: Workspace, onProgress: (done: number, total: number) => void) => Promise<CopyReport>,
): Promise<void> {
  const ws = await cliWorkspace(ctx, { service: false });
  const progress = new ProgressBar(ctx.term.err, verb);
  let report: CopyReport;
  try {
    report = await run(ws, (done, total) =>
      progress.update({ phase: 'copying', done, total, unit: 'files', totalKnown: true }),
    );
  } finally {
    progress.done();
    await ws.close();
  }
  if (json) ctx.io.out(`${JSON.stringify(report, null, 2)}\n`);
  else {
    ctx.io.out(
      `${verb}: ${report.total} file(s): ${report.copied} copied, ${report.replaced} replaced, ${report.unchanged} already identical\n`,
    );
    if (report.differing.length > 0)
      ctx.io.out(`kept (they differ in the store; --replace replaces them): ${report.differing.join(', ')}\n`);
    for (const s of report.skipped) ctx.io.err(`agentm ${verb}: skipped ${s.key}: ${s.reason}\n`);
  }
  ctx.exitCode = EXIT_OK;
}

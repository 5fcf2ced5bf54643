import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { printJson, readInputFile } from '../support.js';
import { cliWorkspace } from '../workspace-cli.js';

export function registerEvolve(program: Command, ctx: CliContext): void {
  program
    .command('evolve <note>')
    .description(
      'supersede a note: archive it under memory/_archive/ and write the new body (the note: a path as save printed it, or store-relative)',
    )
    .requiredOption('--reason <text>', 'why it is superseded (recorded in the archive)')
    .requiredOption('--body-file <file>', 'the new body (- = standard input)')
    .option('--new-slug <slug>', 'give the new note another slug (same folder)')
    .option('--json', 'print the new note and the archive as JSON')
    .action(async (note: string, opts: { reason: string; bodyFile: string; newSlug?: string; json?: boolean }) => {
      const body = await readInputFile(ctx, opts.bodyFile, '--body-file');
      const ws = await cliWorkspace(ctx);
      const root = ws.localRoot;
      const key = ws.storeKey(note);
      const evolved = await ws.evolveNote({
        locator: ws.backend.resolve(key),
        body,
        reason: opts.reason,
        ...(opts.newSlug !== undefined ? { newSlug: opts.newSlug } : {}),
      });
      const show = (k: string) => (root !== undefined ? join(root, k) : k);
      if (opts.json)
        printJson(ctx, {
          path: show(evolved.note.locator.key),
          key: evolved.note.locator.key,
          archived: show(evolved.archive.key),
          archivedKey: evolved.archive.key,
        });
      else ctx.io.out(`${show(evolved.note.locator.key)}\narchived ${show(evolved.archive.key)}\n`);
    });
}

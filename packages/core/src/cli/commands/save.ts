import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { printJson, readInputFile } from '../support.js';
import { cliWorkspace } from '../workspace-cli.js';

export function registerSave(program: Command, ctx: CliContext): void {
  program
    .command('save <kind> <slug>')
    .description('save a new memory note (never overwrites); prints the written path')
    .requiredOption('--body-file <file>', 'the note body (- = standard input)')
    .option('--group <group>', 'the folder group, e.g. desk/projects/agentm (default: memory)')
    .option('--tags <tags>', 'comma-separated tags')
    .option('--always-load', 'file it under memory/_always-load/')
    .option('--json', 'print the written note (path, store key, kind, slug) as JSON')
    .action(
      async (
        kind: string,
        slug: string,
        opts: { bodyFile: string; group?: string; tags?: string; alwaysLoad?: boolean; json?: boolean },
      ) => {
        const body = await readInputFile(ctx, opts.bodyFile, '--body-file');
        const ws = await cliWorkspace(ctx);
        const tags =
          opts.tags === undefined
            ? []
            : opts.tags
                .split(',')
                .map((t) => t.trim())
                .filter((t) => t !== '');
        const note = await ws.saveNote({
          kind,
          slug,
          body,
          tags,
          alwaysLoad: opts.alwaysLoad === true,
          ...(opts.group !== undefined ? { group: opts.group } : {}),
        });
        const root = ws.localRoot;
        const path = root !== undefined ? join(root, ...note.locator.parts) : note.locator.key;
        if (opts.json)
          printJson(ctx, {
            path,
            key: note.locator.key,
            kind: note.fields.type ?? note.fields.kind,
            slug: note.fields.slug,
          });
        else ctx.io.out(`${path}\n`);
      },
    );
}

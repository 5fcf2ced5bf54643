import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_USAGE } from '../errors.js';
import { printJson, readInputFile } from '../support.js';
import type { NoteFiling } from '../../workspace/note-services.js';
import { cliWorkspace } from '../workspace-cli.js';

export function registerSave(program: Command, ctx: CliContext): void {
  program
    .command('save <kind> <slug>')
    .description(
      "save a new memory note (never overwrites): under this repository's project (--global: every project's); prints the written path",
    )
    .requiredOption('--body-file <file>', 'the note body (- = standard input)')
    .option('--global', "file it with every project's notes (the memory space), not under this repository's project")
    .option('--group <group>', 'the folder group instead, e.g. desk/projects/agentm or memory')
    .option('--tags <tags>', 'comma-separated tags')
    .option('--always-load', 'file it under memory/_always-load/')
    .option('--json', 'print the written note (path, store key, kind, slug) as JSON')
    .action(
      async (
        kind: string,
        slug: string,
        opts: {
          bodyFile: string;
          group?: string;
          global?: boolean;
          tags?: string;
          alwaysLoad?: boolean;
          json?: boolean;
        },
      ) => {
        if (opts.global && opts.group !== undefined)
          throw new CliError('--global and --group name two places: give one', EXIT_USAGE);
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
          ...(opts.global ? { scope: 'global' as const } : {}),
        });
        const { filing } = note;
        const root = ws.localRoot;
        const path = root !== undefined ? join(root, ...note.locator.parts) : note.locator.key;
        if (opts.json)
          printJson(ctx, {
            path,
            key: note.locator.key,
            kind: note.fields.type ?? note.fields.kind,
            slug: note.fields.slug,
            scope: filing.scope,
            ...(filing.project !== undefined ? { project: filing.project } : {}),
          });
        else {
          ctx.io.out(`${path}\n`); // the path alone on stdout, as agentm's save prints it
          ctx.io.err(`agentm save: ${filedAs(filing)}\n`);
        }
      },
    );
}

/** Where a note was filed, and the flag for the other place. */
function filedAs(filing: NoteFiling): string {
  if (filing.scope === 'project')
    return `filed under project '${filing.project}' (${filing.group}/); --global files a note for every project`;
  if (filing.scope === 'global') return `filed as a global note (${filing.group}/), seen from every project`;
  return `filed in group ${filing.group}/`;
}

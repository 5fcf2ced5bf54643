import { join } from 'node:path';
import type { Command } from 'commander';
import { spacePath } from '../../config/roots.js';
import { saveNote } from '../../memory/notes/save.js';
import { resolveVocabulary } from '../../memory/notes/resolve-vocabulary.js';
import { selectBackend } from '../../selection/select-backend.js';
import type { CliContext } from '../context.js';
import { hostOf, readInputFile } from '../support.js';

export function registerSave(program: Command, ctx: CliContext): void {
  program
    .command('save <kind> <slug>')
    .description('save a new memory note (never overwrites); prints the written path')
    .requiredOption('--body-file <file>', 'the note body (- = standard input)')
    .option('--group <group>', 'the folder group, e.g. desk/projects/agentm (default: memory)')
    .option('--tags <tags>', 'comma-separated tags')
    .option('--always-load', 'file it under memory/_always-load/')
    .action(
      async (
        kind: string,
        slug: string,
        opts: { bodyFile: string; group?: string; tags?: string; alwaysLoad?: boolean },
      ) => {
        const body = await readInputFile(ctx, opts.bodyFile, '--body-file');
        const selected = await selectBackend({ host: hostOf(ctx) });
        const config = selected.choice.config;
        const vocabulary = await resolveVocabulary({ host: hostOf(ctx), config });
        const tags =
          opts.tags === undefined
            ? []
            : opts.tags
                .split(',')
                .map((t) => t.trim())
                .filter((t) => t !== '');
        const note = await saveNote(
          selected.backend,
          {
            kind,
            slug,
            body,
            tags,
            alwaysLoad: opts.alwaysLoad === true,
            ...(opts.group !== undefined ? { group: opts.group } : {}),
          },
          { vocabulary, memorySpace: spacePath('memory', config) },
        );
        ctx.io.out(`${selected.root !== undefined ? join(selected.root, ...note.locator.parts) : note.locator.key}\n`);
      },
    );
}

import { isAbsolute, join, relative } from 'node:path';
import type { Command } from 'commander';
import { spacePath } from '../../config/roots.js';
import { evolveNote } from '../../memory/notes/evolve.js';
import { resolveVocabulary } from '../../memory/notes/resolve-vocabulary.js';
import { selectBackend } from '../../selection/select-backend.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT_USAGE } from '../errors.js';
import { hostOf, readInputFile } from '../support.js';

export function registerEvolve(program: Command, ctx: CliContext): void {
  program
    .command('evolve <note>')
    .description(
      'supersede a note: archive it under memory/_archive/ and write the new body (the note: a path as save printed it, or store-relative)',
    )
    .requiredOption('--reason <text>', 'why it is superseded (recorded in the archive)')
    .requiredOption('--body-file <file>', 'the new body (- = standard input)')
    .option('--new-slug <slug>', 'give the new note another slug (same folder)')
    .action(async (note: string, opts: { reason: string; bodyFile: string; newSlug?: string }) => {
      const body = await readInputFile(ctx, opts.bodyFile, '--body-file');
      const selected = await selectBackend({ host: hostOf(ctx) });
      let key = note;
      if (isAbsolute(note)) {
        if (selected.root === undefined || relative(selected.root, note).startsWith('..')) {
          throw new CliError(
            `${note} is not inside the store ${selected.root ?? `'${selected.protocol}'`}; give the note's store-relative path`,
            EXIT_USAGE,
          );
        }
        key = relative(selected.root, note);
      }
      const evolved = await evolveNote(
        selected.backend,
        {
          locator: selected.backend.resolve(key),
          body,
          reason: opts.reason,
          ...(opts.newSlug !== undefined ? { newSlug: opts.newSlug } : {}),
        },
        {
          memorySpace: spacePath('memory', selected.choice.config),
          vocabulary: await resolveVocabulary({ host: hostOf(ctx), config: selected.choice.config }),
        },
      );
      const show = (k: string) => (selected.root !== undefined ? join(selected.root, k) : k);
      ctx.io.out(`${show(evolved.note.locator.key)}\narchived ${show(evolved.archive.key)}\n`);
    });
}

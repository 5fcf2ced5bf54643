import type { Command } from 'commander';
import { parseCapabilityNames, VALID_CAPABILITY_NAMES } from '../../selection/capability-names.js';
import type { CliContext } from '../context.js';
import type { DoctorRow } from '../doctor.js';
import { EXIT_CHECK_FAILED, EXIT_OK } from '../errors.js';
import { hostOf } from '../support.js';

const STATUS_STYLE = { ok: 'green', warn: 'yellow', fail: 'red', info: 'cyan' } as const;

/** A row with its `[OK]`/`[WARN]`/`[FAIL]`/`[HINT]` coloured on a terminal; the words are the same when piped. */
function printRow(ctx: CliContext, row: DoctorRow): void {
  const m = /^(.*? )(\[[A-Z]+\])([\s\S]*)$/.exec(row.line);
  if (!m) ctx.term.out.line(row.line);
  else ctx.term.out.line(m[1]!, [STATUS_STYLE[row.status], m[2]!], m[3]!);
}

export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description('check the selected storage backend (and, with --roundtrip, write and read a probe note)')
    .option('--roundtrip', 'write a probe note under _meta/ and read it back through the backend')
    .option(
      '--requires <capabilities>',
      'fail unless the backend offers these capabilities (comma-separated, e.g. concurrent_writers,sync)',
    )
    .option('--fix', 'remove leftover temp files of crashed writers (under the lock)')
    .option('--providers', 'also send one small request to each configured chat and embeddings endpoint')
    .option('--no-detect', 'do not look for a local Ollama or LM Studio to offer for embeddings')
    .option('--json', 'print the rows as JSON')
    .action(
      async (opts: {
        roundtrip?: boolean;
        json?: boolean;
        requires?: string;
        fix?: boolean;
        providers?: boolean;
        detect?: boolean;
      }) => {
        const host = hostOf(ctx);
        const parsed = opts.requires !== undefined ? parseCapabilityNames(opts.requires) : undefined;
        if (parsed && parsed.unknown.length) {
          ctx.io.err(
            `error: unknown capability name(s): ${parsed.unknown.join(', ')}. Valid names: ${VALID_CAPABILITY_NAMES.join(', ')}\n`,
          );
          ctx.exitCode = EXIT_CHECK_FAILED;
          return;
        }
        // The checks reach every layer (store, index, providers): loaded when doctor runs, not for --help.
        const { legacyConfigRow, requiresRow, roundTripRow, storageRow } = await import('../doctor.js');
        const { storeRows } = await import('../doctor-store.js');
        const { freshInstallRow, indexRow, projectRow, providerRows } = await import('../doctor-setup.js');
        const rows: DoctorRow[] = [await storageRow(host)];
        const fresh = await freshInstallRow(host);
        if (fresh) rows.push(fresh);
        const legacy = await legacyConfigRow(host);
        if (legacy) rows.push(legacy);
        if (parsed) rows.push(await requiresRow(host, parsed.required));
        rows.push(...(await storeRows(host, { fix: opts.fix === true })));
        rows.push(...(await providerRows(host, { live: opts.providers === true, detect: opts.detect !== false })));
        const project = await projectRow(host, ctx.io.cwd);
        if (project) rows.push(project);
        const index = await indexRow(host);
        if (index) rows.push(index);
        if (opts.roundtrip) rows.push(await roundTripRow(host));
        if (opts.json) ctx.io.out(`${JSON.stringify(rows, null, 2)}\n`);
        else for (const row of rows) printRow(ctx, row);
        ctx.exitCode = rows.some((r) => r.status === 'fail') ? EXIT_CHECK_FAILED : EXIT_OK;
      },
    );
}

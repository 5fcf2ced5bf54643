import type { Command } from 'commander';
import { parseCapabilityNames, VALID_CAPABILITY_NAMES } from '../../selection/capability-names.js';
import type { CliContext } from '../context.js';
import { legacyConfigRow, requiresRow, roundTripRow, storageRow, type DoctorRow } from '../doctor.js';
import { storeRows } from '../doctor-store.js';
import { EXIT_CHECK_FAILED, EXIT_OK } from '../errors.js';
import { hostOf } from '../support.js';

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
    .option('--json', 'print the rows as JSON')
    .action(async (opts: { roundtrip?: boolean; json?: boolean; requires?: string; fix?: boolean }) => {
      const host = hostOf(ctx);
      const parsed = opts.requires !== undefined ? parseCapabilityNames(opts.requires) : undefined;
      if (parsed && parsed.unknown.length) {
        ctx.io.err(
          `error: unknown capability name(s): ${parsed.unknown.join(', ')}. Valid names: ${VALID_CAPABILITY_NAMES.join(', ')}\n`,
        );
        ctx.exitCode = EXIT_CHECK_FAILED;
        return;
      }
      const rows: DoctorRow[] = [await storageRow(host)];
      const legacy = await legacyConfigRow(host);
      if (legacy) rows.push(legacy);
      if (parsed) rows.push(await requiresRow(host, parsed.required));
      rows.push(...(await storeRows(host, { fix: opts.fix === true })));
      if (opts.roundtrip) rows.push(await roundTripRow(host));
      if (opts.json) ctx.io.out(`${JSON.stringify(rows, null, 2)}\n`);
      else for (const row of rows) ctx.io.out(`${row.line}\n`);
      ctx.exitCode = rows.some((r) => r.status === 'fail') ? EXIT_CHECK_FAILED : EXIT_OK;
    });
}

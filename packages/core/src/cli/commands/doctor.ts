import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { cliBackend, roundTripRow, storageRow, type DoctorRow } from '../doctor.js';
import { EXIT_CHECK_FAILED, EXIT_OK } from '../errors.js';

export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description('check the selected storage backend (and, with --roundtrip, write and read a probe note)')
    .option('--roundtrip', 'write a probe note under _meta/ and read it back through the backend')
    .option('--json', 'print the rows as JSON')
    .action(async (opts: { roundtrip?: boolean; json?: boolean }) => {
      const selected = cliBackend(ctx.io.env);
      const rows: DoctorRow[] = [await storageRow(selected)];
      if (opts.roundtrip) rows.push(await roundTripRow(selected));
      if (opts.json) ctx.io.out(`${JSON.stringify(rows, null, 2)}\n`);
      else for (const row of rows) ctx.io.out(`${row.line}\n`);
      ctx.exitCode = rows.some((r) => r.status === 'fail') ? EXIT_CHECK_FAILED : EXIT_OK;
    });
}

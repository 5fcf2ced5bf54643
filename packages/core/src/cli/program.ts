import { Command, CommanderError } from 'commander';
import { cliBackend, roundTripRow, storageRow, type DoctorRow } from './doctor.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE } from './errors.js';

export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
}

/** Builds the `agentm` program. Each action sets `state.exitCode`. */
export function buildProgram(io: CliIo, state: { exitCode: number }): Command {
  const program = new Command('agentm')
    .description('AgentM: durable, synced memory and plan state for AI coding agents')
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .showHelpAfterError('(run agentm --help for usage)');

  program
    .command('doctor')
    .description('check the selected storage backend (and, with --roundtrip, write and read a probe note)')
    .option('--roundtrip', 'write a probe note under _meta/ and read it back through the backend')
    .option('--json', 'print the rows as JSON')
    .action(async (opts: { roundtrip?: boolean; json?: boolean }) => {
      const selected = cliBackend(io.env);
      const rows: DoctorRow[] = [await storageRow(selected)];
      if (opts.roundtrip) rows.push(await roundTripRow(selected));
      if (opts.json) io.out(`${JSON.stringify(rows, null, 2)}\n`);
      else for (const row of rows) io.out(`${row.line}\n`);
      state.exitCode = rows.some((r) => r.status === 'fail') ? EXIT_CHECK_FAILED : EXIT_OK;
    });

  return program;
}

/** Runs the CLI and returns the exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const state = { exitCode: EXIT_OK };
  const program = buildProgram(io, state);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return state.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; every other parse failure is a usage error.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    if (error instanceof CliError) {
      io.err(`agentm: ${error.message}\n`);
      return error.exitCode;
    }
    io.err(`agentm: ${(error as Error).message ?? String(error)}\n`);
    return EXIT_CHECK_FAILED;
  }
}

import { Command, CommanderError } from 'commander';
import { registerDoctor } from './commands/doctor.js';
import { registerConfig } from './commands/config.js';
import { registerRepos } from './commands/repos.js';
import { registerStateFiles } from './commands/state-files.js';
import { registerSave } from './commands/save.js';
import { registerProcessSeam } from './commands/process-seam.js';
import { registerEvolve } from './commands/evolve.js';
import { registerEval } from './commands/eval.js';
import { registerPlan } from './commands/plan.js';
import { registerReplay } from './commands/replay.js';
import { registerRun } from './commands/run.js';
import { registerApprove } from './commands/approve.js';
import { registerTrace } from './commands/trace.js';
import { registerRecall } from './commands/recall.js';
import { registerReindex } from './commands/reindex.js';
import { registerConsolidate } from './commands/consolidate.js';
import { registerRetry } from './commands/retry.js';
import { registerInit } from './commands/init.js';
import { registerCompletion } from './commands/completion.js';
import { registerTransfer } from './commands/transfer.js';
import { addHelpExamples } from './help-examples.js';
import { registerAgents } from './commands/agents.js';
import { cliContext, failed } from './cli-run.js';
import type { CliContext, CliIo } from './context.js';
import { EXIT_OK, EXIT_USAGE } from './errors.js';
import { coreVersion } from './version.js';

export type { CliIo } from './context.js';

type Register = (program: Command, ctx: CliContext) => void;

/**
 * The registration that declares each top-level command but completion's, which completes from all of
 * them (test/cli-command-table.test.ts holds it to the program's commands): a run of one command
 * registers only its own. Declaring all 30 commands and
 * their options costs a new process ~9 ms — most of what a prompt hook's `agentm recall` spends beyond
 * answering.
 */
export const COMMAND_REGISTRATIONS: Readonly<Record<string, Register>> = {
  doctor: registerDoctor,
  config: registerConfig,
  repos: registerRepos,
  'read-state': registerStateFiles,
  'write-state': registerStateFiles,
  plans: registerStateFiles,
  switch: registerStateFiles,
  save: registerSave,
  'recall-here': registerProcessSeam,
  'state-path': registerProcessSeam,
  'offer-save-here': registerProcessSeam,
  evolve: registerEvolve,
  run: registerRun,
  approve: registerApprove,
  plan: registerPlan,
  trace: registerTrace,
  replay: registerReplay,
  eval: registerEval,
  recall: registerRecall,
  reindex: registerReindex,
  export: registerTransfer,
  import: registerTransfer,
  consolidate: registerConsolidate,
  mcp: registerAgents,
  hook: registerAgents,
  retry: registerRetry,
  init: registerInit,
  // Not the completion commands: they complete from every command.
};

/** Every command, one registration function per file under commands/, in the help's order. */
const COMMANDS: readonly Register[] = [...new Set(Object.values(COMMAND_REGISTRATIONS)), registerCompletion];

/**
 * Builds the `agentm` program. Each action sets `ctx.exitCode`. `command`: the command being run, when
 * it is one: only its registration runs (the program's help, a mistyped command and its suggestion
 * need every command, and get them).
 */
export function buildProgram(ctx: CliContext, command?: string): Command {
  const program = new Command('agentm')
    .description('AgentM: durable, synced memory and plan state for AI coding agents')
    .version(coreVersion(), '-V, --version', 'print the version')
    .exitOverride()
    .configureOutput({ writeOut: ctx.io.out, writeErr: ctx.io.err })
    .showHelpAfterError('(run agentm --help for usage)');
  const only = command !== undefined && Object.hasOwn(COMMAND_REGISTRATIONS, command) ? command : undefined;
  for (const register of only !== undefined ? [COMMAND_REGISTRATIONS[only]!] : COMMANDS) register(program, ctx);
  addHelpExamples(program);
  // Subcommands inherit the exit override, so a usage error anywhere becomes exit 2, not a throw.
  for (const command of program.commands)
    command.exitOverride().configureOutput({ writeOut: ctx.io.out, writeErr: ctx.io.err });
  return program;
}

/** Runs the CLI and returns the exit code; never throws. */
export async function runCli(argv: readonly string[], rawIo: CliIo): Promise<number> {
  const ctx = await cliContext(rawIo);
  const program = buildProgram(ctx, argv[0]);
  try {
    // Bare `agentm` is a request for help, not a mistake: the help on stdout, exit 0 (as git and cargo).
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT_OK;
    }
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; every other parse failure is a usage error.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    return failed(ctx, error);
  }
}

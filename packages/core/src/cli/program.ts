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
import { registerTrace } from './commands/trace.js';
import { registerRecall } from './commands/recall.js';
import { registerReindex } from './commands/reindex.js';
import { registerConsolidate } from './commands/consolidate.js';
import { registerAgents } from './commands/agents.js';
import type { CliContext, CliIo } from './context.js';
import { EXIT_OK, EXIT_USAGE, exitCodeFor } from './errors.js';

export type { CliIo } from './context.js';

/** Every command, one registration function per file under commands/. */
const COMMANDS: ReadonlyArray<(program: Command, ctx: CliContext) => void> = [
  registerDoctor,
  registerConfig,
  registerRepos,
  registerStateFiles,
  registerSave,
  registerProcessSeam,
  registerEvolve,
  registerRun,
  registerPlan,
  registerTrace,
  registerReplay,
  registerEval,
  registerRecall,
  registerReindex,
  registerConsolidate,
  registerAgents,
];

/** Builds the `agentm` program. Each action sets `ctx.exitCode`. */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command('agentm')
    .description('AgentM: durable, synced memory and plan state for AI coding agents')
    .exitOverride()
    .configureOutput({ writeOut: ctx.io.out, writeErr: ctx.io.err })
    .showHelpAfterError('(run agentm --help for usage)');
  for (const register of COMMANDS) register(program, ctx);
  // Subcommands inherit the exit override, so a usage error anywhere becomes exit 2, not a throw.
  for (const command of program.commands)
    command.exitOverride().configureOutput({ writeOut: ctx.io.out, writeErr: ctx.io.err });
  return program;
}

/** Runs the CLI and returns the exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const ctx: CliContext = { io, exitCode: EXIT_OK };
  const program = buildProgram(ctx);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version exit 0; every other parse failure is a usage error.
      return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    }
    io.err(`agentm: ${(error as Error)?.message ?? String(error)}\n`);
    return exitCodeFor(error);
  }
}

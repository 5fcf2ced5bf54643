import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { EXIT_OK } from '../errors.js';
import { dirOption } from '../support.js';
import { coreVersion } from '../version.js';
import { cliWorkspace } from '../workspace-cli.js';

/**
 * `agentm mcp` and `agentm hook <event>`: AgentM for AI agents. Both load their modules only when run
 * (the MCP SDK, the hook handlers), so no other command pays for them.
 */
export function registerAgents(program: Command, ctx: CliContext): void {
  program
    .command('mcp')
    .description(
      'serve the Model Context Protocol over stdio for the repository of --cwd (default: the current directory): recall, save, plans, step updates, doctor; notes and plans as resources',
    )
    .option('--cwd <dir>', 'the repository (default: the current directory)')
    .action(async (opts: { cwd?: string }) => {
      // The server is the recall service: its own recalls use its index, never another server's.
      const ws = await cliWorkspace(ctx, { projectRoot: dirOption(ctx, opts.cwd), service: false });
      const { serveStdio } = await import('../../agents/mcp/server.js');
      await serveStdio(ws, { version: coreVersion(), log: (line) => ctx.io.err(`${line}\n`) });
      ctx.exitCode = EXIT_OK;
    });
  program
    .command('hook')
    .description(
      "answer a Claude Code hook (SessionStart, UserPromptSubmit, PreCompact, Stop) with Claude Code's JSON on stdin; always exits 0",
    )
    .argument('[event]', "the event (default: the input's hook_event_name), e.g. session-start or SessionStart")
    .action(async (event: string | undefined) => {
      const { runHook } = await import('../../agents/hooks/run-hook.js');
      await runHook(event, {
        env: ctx.io.env,
        cwd: ctx.io.cwd,
        out: ctx.io.out,
        err: ctx.io.err,
        readInput: ctx.io.readStdin,
        version: coreVersion(),
      });
      ctx.exitCode = EXIT_OK;
    });
}

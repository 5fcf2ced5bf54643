import { fileURLToPath } from 'node:url';
import { parseDurationMs } from '../memory/recall/duration.js';
import type { WorkspaceOptions } from '../workspace/options.js';
import type { Workspace } from '../workspace/workspace.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_USAGE } from './errors.js';
import { hostOf } from './support.js';
import { coreVersion } from './version.js';

/** The built read worker of a cold index build (dist/memory/indexing/read-worker.js, beside this file's folder). */
export const READ_WORKER_SCRIPT = fileURLToPath(new URL('../memory/indexing/read-worker.js', import.meta.url));

/**
 * The workspace of a CLI run: the run's host, its cwd as the repository (or `projectRoot`), the index
 * in the user cache dir with the read workers, deprecated provider variables warned about on stderr.
 * Every command asks it for the store, the project, recall, consolidation or the harness; none selects
 * a backend or builds a provider itself. The workspace's modules (backends, the memory index) are loaded
 * here, when a command runs, not when the command table is built (`agentm --help` never needs them).
 */
export async function cliWorkspace(
  ctx: CliContext,
  options: { readonly projectRoot?: string; readonly createRoot?: boolean; readonly service?: boolean } = {},
): Promise<Workspace> {
  const { Workspace } = await import('../workspace/workspace.js');
  return Workspace.open(cliWorkspaceOptions(ctx, options));
}

/** How `cliWorkspace` opens the workspace (the doctor opens it itself, to report a store that cannot be). */
export function cliWorkspaceOptions(
  ctx: CliContext,
  options: { readonly projectRoot?: string; readonly createRoot?: boolean; readonly service?: boolean } = {},
): WorkspaceOptions {
  return {
    host: hostOf(ctx),
    projectRoot: options.projectRoot ?? ctx.io.cwd,
    // A running `agentm mcp` answers recalls from its warm index (the same answer, without the walk).
    index: {
      workerScript: READ_WORKER_SCRIPT,
      ...(options.service !== false ? { service: { version: coreVersion() } } : {}),
    },
    warn: (message) => ctx.io.err(`agentm: warning: ${message}\n`),
    ...(options.createRoot !== undefined ? { createRoot: options.createRoot } : {}),
  };
}

/** `90s`, `30m`, `1h`, `7d`, `2w`, or plain milliseconds → milliseconds; a usage error otherwise. */
export function parseDuration(text: string, flag: string): number {
  const ms = parseDurationMs(text);
  if (ms === undefined)
    throw new CliError(`${flag} takes a duration such as 30m, 1h or 7d, got ${JSON.stringify(text)}`, EXIT_USAGE);
  return ms;
}

/** A positive integer option; a usage error otherwise. */
export function parsePositiveInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) <= 0)
    throw new CliError(`${flag} takes a positive whole number, got ${JSON.stringify(text)}`, EXIT_USAGE);
  return Number(text);
}

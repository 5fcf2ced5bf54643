import { fileURLToPath } from 'node:url';
import { Workspace } from '../workspace/workspace.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_USAGE } from './errors.js';
import { hostOf } from './support.js';

/** The built read worker of a cold index build (dist/memory/indexing/read-worker.js, beside this file's folder). */
export const READ_WORKER_SCRIPT = fileURLToPath(new URL('../memory/indexing/read-worker.js', import.meta.url));

/**
 * The workspace of a CLI run: the run's host, its cwd as the repository (or `projectRoot`), the index
 * in the user cache dir with the read workers, deprecated provider variables warned about on stderr.
 * Every command asks it for the store, the project, recall, consolidation or the harness; none selects
 * a backend or builds a provider itself.
 */
export function cliWorkspace(
  ctx: CliContext,
  options: { readonly projectRoot?: string; readonly createRoot?: boolean } = {},
): Promise<Workspace> {
  return Workspace.open({
    host: hostOf(ctx),
    projectRoot: options.projectRoot ?? ctx.io.cwd,
    index: { workerScript: READ_WORKER_SCRIPT },
    warn: (message) => ctx.io.err(`agentm: warning: ${message}\n`),
    ...(options.createRoot !== undefined ? { createRoot: options.createRoot } : {}),
  });
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90s`, `30m`, `1h`, `7d`, `2w`, or plain milliseconds → milliseconds; a usage error otherwise. */
export function parseDuration(text: string, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/.exec(text);
  if (!m) throw new CliError(`${flag} takes a duration such as 30m, 1h or 7d, got ${JSON.stringify(text)}`, EXIT_USAGE);
  return Number(m[1]) * UNITS[m[2] ?? 'ms']!;
}

/** A positive integer option; a usage error otherwise. */
export function parsePositiveInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) <= 0)
    throw new CliError(`${flag} takes a positive whole number, got ${JSON.stringify(text)}`, EXIT_USAGE);
  return Number(text);
}

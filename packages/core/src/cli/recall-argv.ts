import { parseArgs } from 'node:util';
import { cliContext, failed } from './cli-run.js';
import { recallAction, type RecallFlags } from './commands/recall-action.js';
import type { CliIo } from './context.js';

/**
 * `agentm recall <text> [options]` without the command table: commander, the program and the commands'
 * declarations cost a new process ~20 ms before its answer starts (a whole answer at 100 000 notes is
 * ~300 ms). These are the options commands/recall.ts declares, read by Node's own parser, strictly: any
 * argument list it does not read whole — help, an unknown or misspelled option, a missing value, no text
 * or two — goes to commander, which tells what is wrong. test/cli-recall-argv.test.ts holds both to the
 * same reading.
 */
const OPTIONS = {
  project: { type: 'string' },
  'all-projects': { type: 'boolean' },
  limit: { type: 'string', short: 'n' },
  k: { type: 'string' },
  kinds: { type: 'string' },
  window: { type: 'string' },
  'half-life': { type: 'string' },
  json: { type: 'boolean' },
  'no-refresh': { type: 'boolean' },
} as const;

/** The text and options of `agentm recall` (`args` after the command's name) as commander reads them; undefined to leave them to it. */
export function recallArgv(args: readonly string[]): { text: string; flags: RecallFlags } | undefined {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, strict: true, allowPositionals: true });
  } catch {
    return undefined;
  }
  const [text, ...more] = parsed.positionals;
  if (text === undefined || more.length > 0) return undefined;
  const v = parsed.values;
  const flags: RecallFlags = {
    ...(v.project !== undefined ? { project: v.project } : {}),
    ...(v['all-projects'] !== undefined ? { allProjects: v['all-projects'] } : {}),
    ...(v.limit !== undefined ? { limit: v.limit } : {}),
    ...(v.k !== undefined ? { k: v.k } : {}),
    ...(v.kinds !== undefined ? { kinds: v.kinds } : {}),
    ...(v.window !== undefined ? { window: v.window } : {}),
    ...(v['half-life'] !== undefined ? { halfLife: v['half-life'] } : {}),
    ...(v.json !== undefined ? { json: v.json } : {}),
    refresh: v['no-refresh'] !== true,
  };
  return { text, flags };
}

/**
 * `agentm recall` run without the command table (see `recallArgv`), as `runCli` would run it: the same
 * context, the same action, the same report of a failure. Undefined when commander must read `args`.
 */
export function plainRecall(args: readonly string[]): ((rawIo: CliIo) => Promise<number>) | undefined {
  const read = recallArgv(args);
  if (read === undefined) return undefined;
  return async (rawIo) => {
    const ctx = await cliContext(rawIo);
    try {
      await recallAction(ctx, read.text, read.flags);
      return ctx.exitCode;
    } catch (error) {
      return failed(ctx, error);
    }
  };
}

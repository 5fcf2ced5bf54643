import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { readConfigTolerant } from '../config/config-file.js';
import { processHost, type HostEnv } from '../config/host.js';
import { secretValues } from '../text/redact.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_USAGE } from './errors.js';

/** The host (env + home) of a CLI run: the run's env, never the test runner's. */
export function hostOf(ctx: CliContext): HostEnv {
  return processHost(ctx.io.env);
}

/** An absolute directory from an option (relative to the run's cwd), or the run's cwd. */
export function dirOption(ctx: CliContext, value: string | undefined): string {
  return resolve(ctx.io.cwd, value ?? '.');
}

/** The text of `--body-file F` / `--content-file F` (`-` = standard input). Unreadable → usage error (exit 2). */
export async function readInputFile(ctx: CliContext, spec: string, flag: string): Promise<string> {
  if (spec === '-') return ctx.io.readStdin();
  try {
    return await readFile(resolve(ctx.io.cwd, spec), 'utf8');
  } catch (error) {
    throw new CliError(`${flag} ${spec} could not be read (${(error as Error).message})`, EXIT_USAGE);
  }
}

/** Prints JSON with a 2-space indent and a trailing newline. */
export function printJson(ctx: CliContext, value: unknown): void {
  ctx.io.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** The secrets this run knows of: secret-named variables of its environment and secret config keys (`providers.*.api_key`). */
export async function cliSecrets(ctx: CliContext): Promise<string[]> {
  const host = hostOf(ctx);
  return secretValues(host.env, await readConfigTolerant(host));
}

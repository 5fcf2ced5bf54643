import { readConfigTolerant } from '../config/config-file.js';
import { processHost } from '../config/host.js';
import { printable } from '../seam/printable.js';
import { redactSecrets, secretValues } from '../text/redact.js';
import type { CliContext, CliIo } from './context.js';
import { EXIT_OK } from './errors.js';
import { exitCodeFor } from './exit-code.js';
import { cliTerminal } from './ui/cli-terminal.js';

/**
 * `io` with every message on stderr passed through the secret redactor: errors quote provider answers,
 * commands' output and paths, and stderr ends up in logs and agents' transcripts. stdout is data a
 * person asked for (`agentm config get providers.chat.api_key` must print the key).
 */
async function redactingIo(io: CliIo): Promise<CliIo & { readonly secrets: readonly string[] }> {
  const secrets = secretValues(io.env, await readConfigTolerant(processHost(io.env)));
  return { ...io, err: (text) => io.err(redactSecrets(text, secrets)), secrets };
}

/**
 * The context a command runs in. Everything printed passes `printable` (a file name, a note or a model's
 * text never sends a terminal escape sequence) and stderr the secret redactor too. Only `outRaw` (data
 * printed byte for byte) is left to the caller.
 */
export async function cliContext(rawIo: CliIo): Promise<CliContext> {
  const redacted = await redactingIo(rawIo);
  const io: CliIo = {
    ...redacted,
    out: (text) => rawIo.out(printable(text)),
    err: (text) => redacted.err(printable(text)),
    outRaw: rawIo.outRaw ?? rawIo.out,
  };
  return { io, term: cliTerminal(rawIo, redacted.secrets), exitCode: EXIT_OK };
}

/** A command's failure as the CLI reports it: its message on stderr, and the exit code of its kind. */
export function failed(ctx: CliContext, error: unknown): number {
  ctx.io.err(`agentm: ${(error as Error)?.message ?? String(error)}\n`);
  return exitCodeFor(error);
}

import { printable } from '../../seam/printable.js';
import { redactSecrets } from '../../text/redact.js';
import { runHook } from './run-hook.js';

/** The most hook input read (Claude Code's payloads are a few kilobytes; a prompt may be long). */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_INPUT_BYTES) throw new Error(`the hook input is larger than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function askOnTerminal(question: string): Promise<boolean> {
  // Loaded when a question is asked (rare in a hook): every prompt hook would otherwise pay for readline.
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^(y|yes)$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}

/**
 * `agentm hook <event>` as its own process: Claude Code's input on stdin (a terminal means no input, and
 * then offer-save may ask), the answer on stdout, problems on stderr, the budget counted from the
 * process's start. It exits 0 once the answer is written, whatever work is still pending (a late index
 * refresh is abandoned, its lock released on exit): a hook never keeps a session waiting or fails it.
 */
export async function runHookProcess(
  args: readonly string[],
  version: string,
  background?: () => void,
): Promise<never> {
  const terminal = process.stdin.isTTY === true;
  await runHook(args[0], {
    env: process.env,
    cwd: process.cwd(),
    out: (text) => void process.stdout.write(text),
    // Problems go to the session's terminal and transcript: no escape sequences, no key-shaped strings.
    err: (text) => void process.stderr.write(printable(redactSecrets(text))),
    readInput: terminal ? async () => undefined : readStdin,
    confirm: terminal ? askOnTerminal : undefined,
    startedAt: 0,
    version,
    background,
  });
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(0);
}

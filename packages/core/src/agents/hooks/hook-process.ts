import { fstatSync, read, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { flushed } from '../../seam/flushed.js';
import { printable } from '../../seam/printable.js';
import { redactSecrets } from '../../text/redact.js';
import { runHook } from './run-hook.js';

/** The most hook input read (Claude Code's payloads are a few kilobytes; a prompt may be long). */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;
const readAsync = promisify(read);

/**
 * Whether fd 0 is certainly not a terminal, known from `fstat` alone: a pipe, a socket (how Node and
 * libuv hand a child its stdin) or a file. `process.stdin` would answer too, but on a pipe or a socket it
 * loads `net` and builds a socket first: a tenth of a prompt hook's own time.
 */
function stdinIsNoTerminal(): boolean {
  try {
    const stat = fstatSync(0);
    return stat.isFIFO() || stat.isSocket() || stat.isFile();
  } catch {
    return false;
  }
}

/**
 * Claude Code's input: fd 0 read to its end directly (see `stdinIsNoTerminal`); through `process.stdin`
 * when the descriptor will not be read that way (non-blocking: EAGAIN), from where it left off.
 */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_INPUT_BYTES) throw new Error(`the hook input is larger than ${MAX_INPUT_BYTES} bytes`);
    chunks.push(chunk);
  };
  let direct = stdinIsNoTerminal();
  while (direct) {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    try {
      const { bytesRead } = await readAsync(0, buffer, 0, buffer.length, null);
      if (bytesRead === 0) return Buffer.concat(chunks).toString('utf8');
      take(buffer.subarray(0, bytesRead));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') throw error;
      direct = false;
    }
  }
  for await (const chunk of process.stdin) take(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The answer written to fd 1 directly (as `readStdin` reads: no `net`, no socket for a pipe); the rest
 * through `process.stdout` if the descriptor would block (EAGAIN). Whether `process.stdout` was used.
 */
function writeOut(text: string, state: { stream: boolean }): void {
  let rest = Buffer.from(text, 'utf8');
  while (!state.stream && rest.length > 0) {
    try {
      rest = rest.subarray(writeSync(1, rest));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The reader went away (EPIPE): nobody is left to answer, and that is not the hook's failure.
      if (code === 'EPIPE') return;
      if (code !== 'EAGAIN') throw error;
      state.stream = true;
      process.stdout.on('error', () => undefined);
    }
  }
  if (rest.length > 0) process.stdout.write(rest);
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
  /** Called once the answer is flushed, just before the process exits (starts what `background` asked for). */
  atExit?: () => void,
): Promise<never> {
  const terminal = !stdinIsNoTerminal() && process.stdin.isTTY === true;
  const stdout = { stream: false };
  let told = false;
  await runHook(args[0], {
    env: process.env,
    cwd: process.cwd(),
    out: (text) => writeOut(text, stdout),
    // Problems go to the session's terminal and transcript: no escape sequences, no key-shaped strings.
    err: (text) => {
      // A closed stderr is ignored: there is nobody left to tell.
      if (!told) process.stderr.on('error', () => undefined);
      told = true;
      process.stderr.write(printable(redactSecrets(text)));
    },
    readInput: terminal ? async () => undefined : readStdin,
    confirm: terminal ? askOnTerminal : undefined,
    startedAt: 0,
    version,
    background,
  });
  // A stream is made by its getter: flush only those a write made.
  await Promise.all([...(stdout.stream ? [flushed(process.stdout)] : []), ...(told ? [flushed(process.stderr)] : [])]);
  atExit?.();
  process.exit(0);
}

import { spawn, type ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';
import { AGENTM_BIN, type CliResult } from './cli.js';

/**
 * `agentm` on a pseudo-terminal, as a person runs it: util-linux `script` gives it a terminal for
 * stdin, stdout and stderr (so both streams arrive merged, with CRLF line ends), and passes on what the
 * test types. The terminal is `columns` wide. `script -e` exits with agentm's exit code.
 */
const live = new Set<ChildProcess>();
afterEach(() => {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
});

const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

export interface PtySession {
  /** Everything the terminal showed so far. */
  readonly output: () => string;
  /** Resolves once the screen output matches `pattern` (rejects after `timeoutMs`, naming what was shown). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Types text (use `\r` for Enter). */
  type(text: string): void;
  readonly exited: Promise<CliResult>;
}

export function spawnAgentmInPty(
  args: string[],
  options: { home: string; cwd?: string; env?: NodeJS.ProcessEnv; columns?: number },
): PtySession {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: options.home,
    XDG_CACHE_HOME: `${options.home}/.cache`,
    AGENTM_INSTALL_PREFIX: `${options.home}/.claude`,
    TERM: 'xterm-256color',
    AGENTM_DETECT_LOCAL: '0', // as in runAgentm: no test asks this machine's own local servers
    ...options.env,
  };
  const command = `stty cols ${options.columns ?? 100} rows 40; exec ${[AGENTM_BIN, ...args].map(quote).join(' ')}`;
  const child = spawn('script', ['-qefc', command, '/dev/null'], {
    env,
    cwd: options.cwd ?? options.home,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  let output = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString('utf8');
    for (const l of listeners) l();
  });
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exited = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      live.delete(child);
      for (const l of listeners) l();
      resolve({ code, stdout: output, stderr: '' });
    });
  });
  return {
    output: () => output,
    type: (text) => child.stdin.write(text),
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (pattern.test(stripAnsi(output))) {
            cleanup();
            resolve();
          } else if (child.exitCode !== null) {
            cleanup();
            reject(new Error(`agentm ended before showing ${pattern}; it showed:\n${stripAnsi(output)}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; the terminal showed:\n${stripAnsi(output)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        check();
      });
    },
  };
}

/** Runs `agentm` on a pseudo-terminal to the end (stdin a terminal too, nothing typed). */
export async function runAgentmInPty(
  args: string[],
  options: { home: string; cwd?: string; env?: NodeJS.ProcessEnv; columns?: number },
): Promise<CliResult> {
  const session = spawnAgentmInPty(args, options);
  session.type('');
  return session.exited;
}

/** The text a person reads: SGR colours, cursor moves and erases removed, CRLF as LF. */
export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r\n/g, '\n');
}

/** The last state of each screen line: what is left after carriage returns redraw a line in place. */
export function screenLines(text: string): string[] {
  return stripAnsi(text)
    .split('\n')
    .map(
      (line) =>
        line
          .split('\r')
          .filter((part) => part !== '')
          .at(-1) ?? '',
    );
}

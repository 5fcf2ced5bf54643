import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

const live = new Set<ChildProcess>();

export interface Spawned {
  readonly child: ChildProcess;
  /** Resolves with the first stdout line matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** Resolves when the process exits, with its code, signal and all output. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Spawns a real child process (killed after the test if still running). */
export function spawnProcess(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
  options: { cwd?: string; replaceEnv?: boolean } = {},
): Spawned {
  const child = spawn(command, args, {
    env: options.replaceEnv ? env : { ...process.env, ...env },
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  live.add(child);
  let stdout = '';
  let stderr = '';
  const listeners = new Set<() => void>();
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    for (const l of listeners) l();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => {
      child.on('close', (code, signal) => {
        live.delete(child);
        for (const l of listeners) l();
        resolve({ code, signal, stdout, stderr });
      });
    },
  );
  return {
    child,
    exited,
    waitForLine(pattern, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = stdout.split('\n').find((l) => pattern.test(l));
          if (line !== undefined) {
            cleanup();
            resolve(line);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            cleanup();
            reject(new Error(`process exited before printing ${pattern}: ${stdout}\n${stderr}`));
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${pattern}; stdout: ${stdout}; stderr: ${stderr}`));
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

/** Runs a Node fixture script from test/fixtures. */
export function spawnFixture(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Spawned {
  return spawnProcess(process.execPath, [FIXTURES + script, ...args], env);
}

afterEach(() => {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
});

/** Waits (polling every 50 ms, at most 50 s) until `ready()` holds; a condition, never a sleep of a guessed length. */
export async function until(ready: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 50_000;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

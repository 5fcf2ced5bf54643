import { spawn } from 'node:child_process';
import { AGENTM_BIN, type CliResult } from './cli.js';

/**
 * `runAgentm` for commands that may hang: the process is killed (SIGKILL) after `timeoutMs` and the
 * result says so, so a hang fails the test instead of leaving a runaway process behind.
 */
export function runAgentmBounded(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; home: string; timeoutMs?: number },
): Promise<CliResult & { timedOut: boolean }> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: options.home,
    XDG_CACHE_HOME: `${options.home}/.cache`,
    AGENTM_INSTALL_PREFIX: `${options.home}/.claude`,
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(AGENTM_BIN, args, { env, cwd: options.cwd ?? options.home, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs ?? 30_000);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The linked `agentm` bin, as a user runs it after set-up. */
export const AGENTM_BIN = fileURLToPath(new URL('../../node_modules/.bin/agentm', import.meta.url));

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `agentm` as a real process with a private HOME (and XDG cache) unless the caller overrides
 * them, so no test ever reads or writes the user's config, store or locks.
 */
export function runAgentm(
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; stdin?: string; home: string },
): Promise<CliResult> {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env['PATH'],
    HOME: options.home,
    XDG_CACHE_HOME: `${options.home}/.cache`,
    AGENTM_INSTALL_PREFIX: `${options.home}/.claude`,
    // No test asks this machine's own Ollama or LM Studio; the detection tests start their own and say so.
    AGENTM_DETECT_LOCAL: '0',
    ...options.env,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(AGENTM_BIN, args, { env, cwd: options.cwd ?? options.home, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.stdin ?? '');
  });
}

import type { DispatchRequest, StepOutcome } from '../reconciler/dispatcher.js';
import type { CommandPolicy } from '../command-exec/command-policy.js';
import { runProcess } from '../command-exec/run-process.js';
import { CommandSyntaxError, splitCommand } from '../command-exec/shell-words.js';

/** Default limit of one `cmd::` step (the default plan wall-clock budget). */
export const DEFAULT_SHELL_TIMEOUT_MS = 600_000;
const TAIL_LINES = 20;

export interface ShellExecutorOptions {
  /** Where commands run (the project root). */
  readonly projectRoot: string;
  readonly timeoutMs?: number;
  /** The approval gate, the environment (without secrets) and the process-group records. */
  readonly commands: CommandPolicy;
  /** The command's output as it comes (see `runProcess`), for a front end to show live. */
  readonly onOutput?: ((text: string, stream: 'stdout' | 'stderr') => void) | undefined;
}

/** `90s`, `10m`, `1h`, `500ms`, or seconds; undefined when unreadable. */
export function parseDurationMs(text: string | undefined): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/.exec(text?.trim() ?? '');
  if (!m) return undefined;
  return Number(m[1]) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
}

function lastLines(text: string): string {
  return text.replace(/\r\n?/g, '\n').trimEnd().split('\n').slice(-TAIL_LINES).join('\n');
}

/**
 * Runs a step's `[cmd:: …]` in the project root: split into argv without a shell (an operator is
 * refused), checked by the approval gate (an unapproved command fails the step, naming how to consent,
 * and nothing runs), spawned with `shell: false` in the policy's environment (no secrets), limited by
 * `[timeout:: …]` or the default, with the step's identity in the environment (`AGENTM_STEP_ID`,
 * `AGENTM_STEP_KEY` — the idempotency key, the same on every attempt — `AGENTM_STEP_ATTEMPT`,
 * `AGENTM_PLAN`) so a command can make its side effects idempotent, and its process group recorded
 * while it runs. Exit 0 → done; anything else → failed. The exit code and the output's tail are in the
 * outcome.
 */
export async function runShellStep(request: DispatchRequest, options: ShellExecutorOptions): Promise<StepOutcome> {
  const command = request.step.cmd ?? '';
  let argv: string[];
  try {
    argv = splitCommand(command);
  } catch (error) {
    if (error instanceof CommandSyntaxError)
      return { status: 'failed', summary: error.message, toolCalls: 0, tokens: 0, tool: 'shell' };
    throw error;
  }
  const verdict = await options.commands.gate.check({ argv, origin: `step "${request.step.id}"` });
  if (!verdict.allowed)
    return {
      status: 'failed',
      summary: `$ ${command}\nrefused: ${verdict.reason}`,
      toolCalls: 0,
      tokens: 0,
      tool: 'shell',
      data: { reason: 'not_approved' },
    };
  const timeoutMs = parseDurationMs(request.step.fields['timeout']) ?? options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS;
  const env = {
    ...options.commands.env,
    AGENTM_PLAN: request.planName,
    AGENTM_STEP_ID: request.step.id,
    AGENTM_STEP_KEY: request.stepKey,
    AGENTM_STEP_ATTEMPT: String(request.attempt),
    AGENTM_PROJECT_ROOT: options.projectRoot,
  };
  const result = await runProcess(argv, {
    cwd: options.projectRoot,
    env,
    timeoutMs,
    signal: request.signal,
    track: options.commands.records?.forStep(options.projectRoot, request.planName, request.stepKey),
    onOutput: options.onOutput,
  });
  const seconds = (result.durationMs / 1000).toFixed(1);
  const tail = lastLines(result.tail);
  const data = {
    approved_by: verdict.basis,
    exit_code: result.exitCode ?? undefined,
    signal: result.signal ?? undefined,
    duration_ms: result.durationMs,
  };
  if (result.spawnError) {
    return {
      status: 'failed',
      summary: `$ ${command}\ncould not start ${JSON.stringify(argv[0])} in ${options.projectRoot}: ${result.spawnError}`,
      toolCalls: 1,
      tokens: 0,
      tool: 'shell',
      data,
    };
  }
  const how = result.timedOut
    ? `timed out after ${(timeoutMs / 1000).toFixed(1)} s (killed)`
    : result.aborted
      ? 'interrupted'
      : result.exitCode === null
        ? `killed by ${result.signal}`
        : `exit ${result.exitCode} after ${seconds} s`;
  const summary = `$ ${command}\n${how}${tail === '' ? '' : `\n${tail}`}`;
  const ok = result.exitCode === 0 && !result.timedOut && !result.aborted;
  return { status: ok ? 'done' : 'failed', summary, toolCalls: 1, tokens: 0, tool: 'shell', data };
}

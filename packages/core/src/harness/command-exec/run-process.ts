import { spawn } from 'node:child_process';
import type { StepRunRecords } from './run-records.js';

/** Bytes of combined output kept for the record (the tail: where errors usually are). */
export const OUTPUT_TAIL_CHARS = 2_000;
/** Grace between SIGTERM and SIGKILL when a command overruns or the reconciler stops. */
export const KILL_GRACE_MS = 2_000;

export interface ProcessResult {
  /** Exit code, or null when killed by a signal. */
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Last `OUTPUT_TAIL_CHARS` characters of stdout and stderr, interleaved as they came. */
  readonly tail: string;
  /** Set when the program could not be started (not found, not executable). */
  readonly spawnError?: string;
  readonly durationMs: number;
}

/**
 * Runs `argv` directly (`shell: false`: no word of it is interpreted by a shell) in `cwd`, with the given
 * environment, stdin closed. Kills it and its descendants (SIGTERM, then SIGKILL after a grace period) on
 * timeout or abort. With `track`, its process group is recorded from the moment it is spawned until it
 * ends, so a run that dies meanwhile does not leave it behind unknown.
 */
export function runProcess(
  argv: readonly string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv | Readonly<Record<string, string>>;
    timeoutMs: number;
    signal?: AbortSignal;
    track?: StepRunRecords | undefined;
    /** Each chunk of output as it comes (decoded UTF-8, split anywhere), for a front end to show live. */
    onOutput?: ((text: string, stream: 'stdout' | 'stderr') => void) | undefined;
  },
): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let tail = '';
    let timedOut = false;
    let aborted = false;
    let killTimer: NodeJS.Timeout | undefined;
    // Its own process group (POSIX), so a timeout or stop ends the whole tree (`npm test` and its children).
    const group = process.platform !== 'win32';
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: options.cwd,
      env: options.env,
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
      detached: group,
    });
    let tracked: number | undefined;
    if (group && options.track && child.pid !== undefined) {
      try {
        options.track.add(child.pid, argv);
        tracked = child.pid;
      } catch (error) {
        // Unrecorded, a crash of ours would leave it running unseen: do not let it run at all.
        process.kill(-child.pid, 'SIGKILL');
        const done = () =>
          resolve({
            exitCode: null,
            signal: null,
            spawnError: `not started: its process group could not be recorded (${(error as Error).message})`,
            tail: '',
            timedOut: false,
            aborted: false,
            durationMs: Date.now() - started,
          });
        child.once('close', done);
        return;
      }
    }
    const signal = (sig: NodeJS.Signals) => {
      try {
        if (group && child.pid !== undefined) process.kill(-child.pid, sig);
        else child.kill(sig);
      } catch {
        child.kill(sig);
      }
    };
    // One decoder per stream: a multi-byte character split across chunks is kept whole.
    const keep = (stream: 'stdout' | 'stderr') => {
      const decoder = new TextDecoder('utf-8');
      return (chunk: Buffer) => {
        const text = decoder.decode(chunk, { stream: true });
        tail = (tail + text).slice(-OUTPUT_TAIL_CHARS);
        if (text !== '') options.onOutput?.(text, stream);
      };
    };
    child.stdout.on('data', keep('stdout'));
    child.stderr.on('data', keep('stderr'));
    const stop = () => {
      signal('SIGTERM');
      killTimer = setTimeout(() => signal('SIGKILL'), KILL_GRACE_MS);
    };
    const timer = options.timeoutMs > 0 ? setTimeout(() => ((timedOut = true), stop()), options.timeoutMs) : undefined;
    const onAbort = () => ((aborted = true), stop());
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    const done = (result: Omit<ProcessResult, 'durationMs' | 'tail' | 'timedOut' | 'aborted'>) => {
      if (tracked !== undefined) options.track!.remove(tracked);
      clearTimeout(timer);
      clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve({ ...result, tail, timedOut, aborted, durationMs: Date.now() - started });
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      done({ exitCode: null, signal: null, spawnError: `${error.code ?? 'error'}: ${error.message}` });
    });
    child.on('close', (exitCode, signal) => done({ exitCode, signal }));
  });
}

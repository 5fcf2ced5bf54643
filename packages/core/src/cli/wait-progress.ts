import type { ChatProvider, ChatRequest, ChatResponse } from '../providers/chat.js';

/**
 * Progress while a model thinks: a slow or hung endpoint once kept `agentm plan` silent for minutes.
 * After a second of waiting, a terminal gets a spinner with the elapsed time, redrawn in place; any
 * other stream (a log, a pipe, an agent's tool call) gets a plain line then, and another every 10 s.
 */
export interface WaitProgressOptions {
  /** Who is waiting (`agentm plan`). */
  readonly prefix: string;
  /** What for (`the model llama3 at http://127.0.0.1:11434/v1`). */
  readonly label: string;
  /** When the call gives up, if known (shown as "gives up after …"). */
  readonly limitMs?: number;
  /** Whether `write` goes to a terminal (redraw in place) or not (plain lines). */
  readonly tty: boolean;
  readonly write: (text: string) => void;
  /** Quiet for this long (default 1 s): a fast answer shows nothing. */
  readonly firstAfterMs?: number;
  /** Plain lines after the first, this far apart (default 10 s). */
  readonly everyMs?: number;
  /**
   * On a terminal: draws one frame (spinner and line, without control characters) in place of the last,
   * and `clear` erases it. Given by the CLI, whose stderr escapes control characters in text; absent,
   * `write` gets the frame with its carriage return and erase-line sequence.
   */
  readonly redraw?: (frame: string) => void;
  readonly clear?: () => void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const TTY_REDRAW_MS = 100;

/** `60 s`, `2.5 s`, `1.5 min` … */
export function formatWait(ms: number): string {
  if (ms >= 120_000) return `${Number((ms / 60_000).toFixed(1))} min`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** One progress line (without line ending): the prefix, what it waits for, elapsed whole seconds, the limit. */
export function waitLine(
  options: Pick<WaitProgressOptions, 'prefix' | 'label' | 'limitMs'>,
  elapsedMs: number,
): string {
  const limit = options.limitMs && options.limitMs > 0 ? `; gives up after ${formatWait(options.limitMs)}` : '';
  return `${options.prefix}: waiting for ${options.label} (${Math.floor(elapsedMs / 1000)} s${limit})`;
}

/** The terminal form: carriage return, a spinner frame, the line, and erase-to-end-of-line. */
export function spinnerFrame(
  options: Pick<WaitProgressOptions, 'prefix' | 'label' | 'limitMs'>,
  elapsedMs: number,
): string {
  const frame = FRAMES[Math.floor(elapsedMs / TTY_REDRAW_MS) % FRAMES.length]!;
  return `\r${frame} ${waitLine(options, elapsedMs)}\x1b[K`;
}

/** Shows progress while `work` runs; returns its result. Nothing is shown when it ends within `firstAfterMs`. */
export async function showWhileWaiting<T>(options: WaitProgressOptions, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const first = options.firstAfterMs ?? 1000;
  let shown = false;
  let repeat: NodeJS.Timeout | undefined;
  const draw = () => {
    const elapsed = Date.now() - started;
    if (options.tty && options.redraw)
      options.redraw(`${FRAMES[Math.floor(elapsed / TTY_REDRAW_MS) % FRAMES.length]!} ${waitLine(options, elapsed)}`);
    else options.write(options.tty ? spinnerFrame(options, elapsed) : `${waitLine(options, elapsed)}\n`);
    shown = true;
  };
  const timer = setTimeout(() => {
    draw();
    repeat = setInterval(draw, options.tty ? TTY_REDRAW_MS : (options.everyMs ?? 10_000));
  }, first);
  try {
    return await work();
  } finally {
    clearTimeout(timer);
    clearInterval(repeat);
    if (shown && options.tty) {
      if (options.clear) options.clear();
      else options.write('\r\x1b[K');
    }
  }
}

/** `provider` with progress shown around each call (see `showWhileWaiting`). */
export function withWaitProgress(provider: ChatProvider, options: WaitProgressOptions): ChatProvider {
  return {
    name: provider.name,
    timeoutMs: provider.timeoutMs,
    chat: (request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> =>
      showWhileWaiting(options, () => provider.chat(request, signal)),
  };
}

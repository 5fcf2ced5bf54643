import type { RunStepEvent } from '../workspace/harness-services.js';
import type { CliContext } from './context.js';
import { formatWait } from './wait-progress.js';
import { LineSplitter } from './ui/line-splitter.js';
import { LiveRegion } from './ui/live-region.js';
import type { Segment } from './ui/terminal.js';

/** How `agentm run` shows a run: `quiet` (the log's terse lines), `plain` (plus prefixed output), `live` (a terminal view). */
export type RunViewMode = 'quiet' | 'plain' | 'live';

/** What `harness.run` is given to show the run, and `close` to call once it has ended. */
export interface RunView {
  readonly log: (line: string) => void;
  readonly onOutput?: (step: string, text: string, stream: 'stdout' | 'stderr') => void;
  readonly onStep?: (event: RunStepEvent) => void;
  close(): void;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The line a finished step is summed up by: a command's exit (`exit 1 after 0.4 s`), else the summary's first line. */
function endDetail(summary: string, command: string | undefined): string {
  const lines = summary.split('\n').filter((l) => l.trim() !== '');
  const rest = command !== undefined && lines[0]?.startsWith('$ ') ? lines.slice(1) : lines;
  return rest[0]?.trim() ?? '';
}

/** The reconciler's lines a live view shows in its own way (claims, ends), left out there. */
const SHOWN_LIVE = /^(claimed step \S+ \(attempt \d+\)|step \S+ (done|failed|blocked|released))$/;

/**
 * The view of one `agentm run` on stderr. Every line of a command's output is prefixed with its step
 * id and goes through the same cleaning as all of stderr (the secret redactor, `printable`): whole
 * lines only, so a secret split across two chunks is still found. `quiet`: today's terse log lines;
 * `plain` (not a terminal): those and `[step] line` for each output line; `live` (a terminal): the
 * running steps with their elapsed time redrawn at the bottom, output and finished steps above.
 */
export function runView(ctx: CliContext, mode: RunViewMode): RunView {
  const err = ctx.term.err;
  const splitters = new Map<string, LineSplitter>();
  const splitter = (key: string) => {
    let s = splitters.get(key);
    if (!s) splitters.set(key, (s = new LineSplitter()));
    return s;
  };
  if (mode === 'quiet') return { log: (line) => ctx.io.err(`agentm run: ${line}\n`), close: () => undefined };

  if (mode === 'plain') {
    const emit = (step: string, lines: readonly string[]) => {
      for (const line of lines) ctx.io.err(`[${step}] ${line}\n`);
    };
    return {
      log: (line) => ctx.io.err(`agentm run: ${line}\n`),
      onOutput: (step, text, stream) => emit(step, splitter(`${step}\0${stream}`).push(text)),
      onStep: (event) => {
        if (event.kind !== 'end') return;
        for (const stream of ['stdout', 'stderr']) emit(event.step, splitter(`${event.step}\0${stream}`).flush());
      },
      close: () => undefined,
    };
  }

  const running = new Map<string, { started: number; command: string | undefined; title: string }>();
  const started = Date.now();
  let done = 0;
  let failed = 0;
  const region = new LiveRegion(err, () => {
    if (running.size === 0) return [];
    const now = Date.now();
    const frame = FRAMES[Math.floor((now - started) / 100) % FRAMES.length]!;
    const head: Segment[] = [
      ['cyan', frame],
      ` ${running.size} running`,
      ['dim', ` · ${done} done`],
      ...(failed > 0 ? [['red', ` · ${failed} failed`] as const] : []),
      ['dim', ` · ${formatWait(now - started)}`],
    ];
    const pad = Math.max(...[...running.keys()].map((id) => id.length));
    const rows = [...running.entries()].map(([id, r]): Segment[] => [
      '  ',
      ['bold', id.padEnd(pad)],
      ['dim', `  ${r.command !== undefined ? `$ ${r.command}` : r.title}`],
      `  ${formatWait(now - r.started)}`,
    ]);
    return [head, ...rows];
  });
  const width = () => Math.max(...[...running.keys(), ...splitters.keys()].map((k) => k.split('\0')[0]!.length), 1);
  const print = (step: string, lines: readonly string[], stream: string) => {
    for (const line of lines)
      region.print(['dim', `${step.padEnd(width())} │ `], stream === 'stderr' ? ['yellow', line] : line);
  };
  region.start();
  return {
    log: (line) => {
      if (!SHOWN_LIVE.test(line)) region.print(['dim', `agentm run: ${line}`]);
    },
    onOutput: (step, text, stream) => print(step, splitter(`${step}\0${stream}`).push(text), stream),
    onStep: (event) => {
      if (event.kind === 'start') {
        running.set(event.step, { started: Date.now(), command: event.command, title: event.title });
        region.update();
        return;
      }
      for (const stream of ['stdout', 'stderr'])
        print(event.step, splitter(`${event.step}\0${stream}`).flush(), stream);
      const r = running.get(event.step);
      running.delete(event.step);
      const took = formatWait(event.durationMs);
      const detail = endDetail(event.summary, r?.command);
      if (event.status === 'done') {
        done++;
        region.print(['green', '✓'], ' ', ['bold', event.step], ['dim', `  ${took}`]);
      } else {
        if (event.status === 'failed') failed++;
        region.print(
          event.status === 'failed' ? ['red', '✗'] : ['yellow', '⏸'],
          ' ',
          ['bold', event.step],
          `  ${detail || event.status}`,
          ['dim', detail.includes(' after ') ? '' : `  ${took}`],
        );
      }
    },
    close: () => region.stop(),
  };
}

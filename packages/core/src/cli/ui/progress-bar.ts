import { formatWait } from '../wait-progress.js';
import { LiveRegion } from './live-region.js';
import type { Segment, TermStream } from './terminal.js';

/** What a long job reports: a phase, how many of how many, and whether the total is final yet. */
export interface ProgressState {
  readonly phase: string;
  readonly done: number;
  readonly total: number;
  /** False while the total still grows (a walk still listing); no ETA until it is known. */
  readonly totalKnown?: boolean;
  /** What is counted (`files`, `clusters`). */
  readonly unit?: string;
  /** False for a phase whose counts mean nothing (saving what was read): only its name is shown. */
  readonly counted?: boolean;
}

const BAR_WIDTH = 20;

/** `[██████░░░░░░]` for a fraction. */
export function bar(fraction: number, width = BAR_WIDTH): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
}

/** The line of a progress state: phase, bar, counts, rate and ETA (rate and ETA once there is one). */
export function progressLine(label: string, state: ProgressState, elapsedMs: number): Segment[] {
  if (state.counted === false) return [['bold', label], ` ${state.phase}…`];
  const { done, total } = state;
  const unit = state.unit ? ` ${state.unit}` : '';
  const rate = elapsedMs > 0 ? (done * 1000) / elapsedMs : 0;
  const known = state.totalKnown !== false;
  const eta = known && rate > 0 && total > done ? formatWait(((total - done) / rate) * 1000) : undefined;
  return [
    ['bold', label],
    ` ${state.phase} `,
    ['cyan', bar(total > 0 ? done / total : 0)],
    ` ${done}/${total}${known ? '' : '+'}${unit}`,
    ['dim', rate > 0 ? ` · ${rate >= 10 ? Math.round(rate) : rate.toFixed(1)}/s` : ''],
    ['dim', eta ? ` · ETA ${eta}` : ''],
  ];
}

/**
 * A progress bar on a terminal (one live line on stderr, redrawn in place, erased when done); on
 * anything else nothing at all, so a pipe or a log gets exactly what it got before.
 */
export class ProgressBar {
  readonly #region: LiveRegion | undefined;
  #state: ProgressState | undefined;
  #started = Date.now();
  #phase = '';

  constructor(stream: TermStream, label: string) {
    this.#region = stream.tty
      ? new LiveRegion(stream, () =>
          this.#state ? [progressLine(label, this.#state, Date.now() - this.#started)] : [],
        )
      : undefined;
  }

  /** Shows a new state (the rate restarts with each phase). */
  update(state: ProgressState): void {
    if (!this.#region) return;
    const newPhase = state.phase !== this.#phase;
    if (newPhase) {
      this.#phase = state.phase;
      this.#started = Date.now();
    }
    this.#state = state;
    this.#region.start();
    // Within a phase the region's clock redraws (a few times a second); a new phase shows at once.
    if (newPhase) this.#region.update();
  }

  /** Erases the bar. */
  done(): void {
    this.#region?.stop();
  }
}

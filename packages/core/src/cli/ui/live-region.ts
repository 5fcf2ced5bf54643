import { CONTROL, type Segment, type TermStream } from './terminal.js';

/** How often a live region redraws by itself (its clocks tick). */
export const REDRAW_MS = 100;

/** The segments cut to `width` visible characters (a region line must never wrap: it could not be erased). */
export function fitSegments(segments: readonly Segment[], width: number): Segment[] {
  const out: Segment[] = [];
  let left = Math.max(1, width);
  for (const s of segments) {
    const text = typeof s === 'string' ? s : s[1];
    const chars = [...text.replace(/[\r\n\t]+/g, ' ')];
    if (chars.length === 0) continue;
    const kept = chars.slice(0, left).join('');
    left -= Math.min(chars.length, left);
    out.push(typeof s === 'string' ? kept : [s[0], kept]);
    if (left === 0) break;
  }
  return out;
}

/**
 * A few lines at the bottom of a terminal, redrawn in place (the running steps of `agentm run`, the
 * progress bar of `reindex`), with permanent lines printed above them. Only for a terminal: a pipe gets
 * plain lines from the caller instead. `render` is asked for the lines at every redraw (on each
 * `print`, `update` and every REDRAW_MS while started), so clocks in it keep moving.
 */
export class LiveRegion {
  readonly #stream: TermStream;
  readonly #render: () => Segment[][];
  #drawn = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(stream: TermStream, render: () => Segment[][]) {
    this.#stream = stream;
    this.#render = render;
  }

  start(): void {
    if (this.#timer) return;
    this.#draw();
    this.#timer = setInterval(() => this.update(), REDRAW_MS);
    this.#timer.unref();
  }

  /** A permanent line above the region. */
  print(...segments: Segment[]): void {
    this.#clear();
    this.#stream.line(...segments);
    this.#draw();
  }

  /** Redraws the region now. */
  update(): void {
    this.#clear();
    this.#draw();
  }

  /** Erases the region and stops redrawing; later output starts on a clean line. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clear();
  }

  #clear(): void {
    if (this.#drawn === 0) return;
    let sequence = CONTROL.eraseLine;
    for (let i = 1; i < this.#drawn; i++) sequence += `${CONTROL.up(1)}${CONTROL.eraseLine}`;
    this.#stream.control(sequence);
    this.#drawn = 0;
  }

  #draw(): void {
    const lines = this.#render();
    const width = this.#stream.columns - 1;
    lines.forEach((segments, i) => {
      if (i > 0) this.#stream.write('\n');
      this.#stream.write(...fitSegments(segments, width));
    });
    this.#drawn = lines.length;
  }
}

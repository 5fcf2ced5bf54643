import picocolors from 'picocolors';

/** The styles the CLI uses: status colours, and dim/bold for what matters less or more. */
export type Style = 'red' | 'green' | 'yellow' | 'cyan' | 'dim' | 'bold';

/** A piece of a line: plain text, or text with a style. */
export type Segment = string | readonly [Style, string];

/**
 * Whether a stream gets colour (the conventions of no-color.org and FORCE_COLOR as Node and chalk read
 * them): `NO_COLOR` set to anything non-empty turns it off; else `FORCE_COLOR` turns it on (`0` or
 * `false`: off); else a terminal gets colour unless `TERM=dumb`. Pipes and files never do by default.
 */
export function colorEnabled(env: Readonly<Record<string, string | undefined>>, isTTY: boolean): boolean {
  if ((env['NO_COLOR'] ?? '') !== '') return false;
  const force = env['FORCE_COLOR'];
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return isTTY && env['TERM'] !== 'dumb';
}

/**
 * One output stream as the CLI's renderers see it. Text handed to `line`/`write` is made safe first
 * (`clean`: `printable`, and on stderr the secret redactor), then styled: the only escape sequences that
 * reach the terminal are the ones composed here, never one carried in by a note, a file name, a model's
 * text or a command's output.
 */
export class TermStream {
  readonly tty: boolean;
  readonly color: boolean;
  /** The terminal's width (80 when unknown or not a terminal). */
  readonly columns: number;
  readonly #raw: (text: string) => void;
  readonly #clean: (text: string) => string;
  readonly #colors: ReturnType<typeof picocolors.createColors>;

  constructor(options: {
    raw: (text: string) => void;
    clean: (text: string) => string;
    tty: boolean;
    color: boolean;
    columns?: number | undefined;
  }) {
    this.#raw = options.raw;
    this.#clean = options.clean;
    this.tty = options.tty;
    this.color = options.color;
    this.columns = options.columns && options.columns > 0 ? options.columns : 80;
    this.#colors = picocolors.createColors(options.color);
  }

  /** The segments as one safe string (styled when colour is on), without a line ending. */
  render(segments: readonly Segment[]): string {
    return segments
      .map((s) => (typeof s === 'string' ? this.#clean(s) : this.#colors[s[0]](this.#clean(s[1]))))
      .join('');
  }

  /** Writes the segments followed by a line ending. */
  line(...segments: Segment[]): void {
    this.#raw(`${this.render(segments)}\n`);
  }

  /** Writes the segments as they are (no line ending). */
  write(...segments: Segment[]): void {
    this.#raw(this.render(segments));
  }

  /** On a terminal: replaces the current line with the segments (the cursor stays on that line). */
  frame(...segments: Segment[]): void {
    this.control(CONTROL.eraseLine);
    this.write(...segments);
  }

  /**
   * Terminal control composed by a renderer of this module (cursor moves, erase line). Only on a
   * terminal; never call it with text from outside.
   */
  control(sequence: string): void {
    if (this.tty) this.#raw(sequence);
  }
}

/** The two streams of a CLI run. */
export interface Terminal {
  readonly out: TermStream;
  readonly err: TermStream;
}

/** Cursor and line control (ECMA-48), for the live renderers. */
export const CONTROL = {
  eraseLine: '\r\x1b[2K',
  up: (n: number) => (n > 0 ? `\x1b[${n}A` : ''),
  hideCursor: '\x1b[?25l',
  showCursor: '\x1b[?25h',
} as const;

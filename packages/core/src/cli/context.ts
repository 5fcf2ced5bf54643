import type { Terminal } from './ui/terminal.js';

/** What every command gets: its output streams, environment and working directory, and the exit code to set. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /**
   * Standard output for data printed byte for byte (`read-state`'s file content). Default: `out`. The
   * CLI's own entry point sanitizes it too when stdout is a terminal.
   */
  readonly outRaw?: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Standard input, read whole (for `--body-file -` and friends). */
  readonly readStdin: () => Promise<string>;
  /** Whether `err` writes to a terminal (progress redrawn in place; else plain lines). */
  readonly errIsTTY?: boolean;
  /**
   * Asks a person a question on the terminal and resolves with the answer line (undefined: no answer,
   * e.g. Ctrl-C or end of input). Absent when stdin and stderr are not both a terminal: nobody to ask.
   */
  readonly ask?: (question: string) => Promise<string | undefined>;
  /** Whether `out` writes to a terminal. */
  readonly outIsTTY?: boolean;
  /** The terminal's width in columns, when one is attached. */
  readonly columns?: number | undefined;
  /**
   * The streams as they are, for `TermStream` only (it makes every piece of text safe itself and adds
   * nothing but its own colour and cursor sequences). Default: `out` and `err`.
   */
  readonly termOut?: (text: string) => void;
  readonly termErr?: (text: string) => void;
  /**
   * Starts the background refresh of the memory index (`agentm reindex --background`: a full walk, the
   * missing embeddings) as a detached process that outlives this one. Absent where the CLI runs inside
   * another program (tests): nothing is started.
   */
  readonly background?: () => void;
}

export interface CliContext {
  readonly io: CliIo;
  /** Styled, sanitized output and live views (colour on a terminal, honouring NO_COLOR/FORCE_COLOR). */
  readonly term: Terminal;
  /** The exit code the run ends with; commands set it (default 0). */
  exitCode: number;
}

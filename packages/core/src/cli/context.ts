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
}

export interface CliContext {
  readonly io: CliIo;
  /** The exit code the run ends with; commands set it (default 0). */
  exitCode: number;
}

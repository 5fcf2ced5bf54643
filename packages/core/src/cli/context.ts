/** What every command gets: its output streams, environment and working directory, and the exit code to set. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  /** Standard input, read whole (for `--body-file -` and friends). */
  readonly readStdin: () => Promise<string>;
  /** Whether `err` writes to a terminal (progress redrawn in place; else plain lines). */
  readonly errIsTTY?: boolean;
}

export interface CliContext {
  readonly io: CliIo;
  /** The exit code the run ends with; commands set it (default 0). */
  exitCode: number;
}

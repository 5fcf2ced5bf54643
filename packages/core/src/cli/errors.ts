import { AgentMError } from '../seam/errors.js';

/** Exit codes of the `agentm` command line (DESIGN §12). */
export const EXIT_OK = 0;
export const EXIT_CHECK_FAILED = 1;
export const EXIT_USAGE = 2;

/** A failure the CLI reports with a chosen exit code and message (no stack trace). */
export class CliError extends AgentMError {
  readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT_USAGE) {
    super(message, { code: 'ECLI' });
    this.exitCode = exitCode;
  }
}

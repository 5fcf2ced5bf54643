import { AgentMError, EXIT_CHECK_FAILED, EXIT_USAGE } from '../seam/errors.js';

/** Exit codes of the `agentm` command line (DESIGN §12); the families carry theirs (`AgentMError.exitCode`). */
export const EXIT_OK = 0;
export { EXIT_CHECK_FAILED, EXIT_USAGE };

/** A failure the CLI reports with a chosen exit code and message (no stack trace). */
export class CliError extends AgentMError {
  override readonly exitCode: number;
  constructor(message: string, exitCode: number = EXIT_USAGE) {
    super(message, { code: 'ECLI' });
    this.exitCode = exitCode;
  }
}

import { AgentMError, EXIT_CHECK_FAILED } from '../seam/errors.js';

/**
 * The exit code of an error: its family's (`AgentMError.exitCode`: 2 for what the user can fix in the
 * command or its input, 1 for a failed check), and 1 for anything that is not an AgentM error.
 */
export function exitCodeFor(error: unknown): number {
  return error instanceof AgentMError ? error.exitCode : EXIT_CHECK_FAILED;
}

import { AgentMError, InvalidLocatorError } from '../seam/errors.js';
import { ConfigError } from '../config/errors.js';
import { PlanNotFoundError, PlanValidationError, UnknownStepError } from '../harness/errors.js';
import { RolesConfigError } from '../harness/tools/roles-config.js';
import { ProviderConfigError } from '../providers/settings.js';
import { NoteError } from '../memory/notes/errors.js';
import { ProjectBindingError, ProjectSlugError, RegistryArgumentError } from '../routing/errors.js';
import { StatePathArgumentError } from '../process-seam/process.js';
import { StateError } from '../state/errors.js';

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

/**
 * The exit code of an error: 2 for what the user can fix in the command or its input (validation,
 * bad names, an unusable config value, a half-configured provider or roster, a missing or invalid plan,
 * a dangling plan marker); 1 for everything else (selection
 * refused, a lost compare-and-swap, a lock timeout, an unexpected failure).
 */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  const usage =
    error instanceof NoteError ||
    error instanceof StateError ||
    error instanceof ConfigError ||
    error instanceof InvalidLocatorError ||
    error instanceof ProjectSlugError ||
    error instanceof ProjectBindingError ||
    error instanceof RegistryArgumentError ||
    error instanceof StatePathArgumentError ||
    error instanceof ProviderConfigError ||
    error instanceof RolesConfigError ||
    error instanceof PlanNotFoundError ||
    error instanceof PlanValidationError ||
    error instanceof UnknownStepError;
  return usage ? EXIT_USAGE : EXIT_CHECK_FAILED;
}

// The error classes of every layer, for their exit code: this module loads most of core, so the CLI imports it
// only when a command has failed (never on the way to `agentm --help` or a recall).
import { InvalidLocatorError } from '../seam/errors.js';
import { ConfigError } from '../config/errors.js';
import { PlanNotFoundError, PlanValidationError, UnknownStepError } from '../harness/errors.js';
import { RolesConfigError } from '../harness/tools/roles-config.js';
import { ProviderConfigError } from '../providers/settings.js';
import { NoteError } from '../memory/notes/errors.js';
import { ProjectBindingError, ProjectSlugError, RegistryArgumentError } from '../routing/errors.js';
import { StatePathArgumentError } from '../process-seam/process.js';
import { StateError } from '../state/errors.js';
import { StoreTransferError } from '../workspace/store-copy.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_USAGE } from './errors.js';

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
    error instanceof UnknownStepError ||
    error instanceof StoreTransferError;
  return usage ? EXIT_USAGE : EXIT_CHECK_FAILED;
}

import { loadRoles, RolesConfigError } from '../harness/tools/roles-config.js';
import type { Role } from '../harness/tools/roles.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_USAGE } from './errors.js';
import { hostOf } from './support.js';

/** The harness roster of a CLI run (`harness.roles` in the config, else the seed roles); a malformed one is a usage error. */
export async function cliRoles(ctx: CliContext): Promise<readonly Role[]> {
  try {
    return await loadRoles(hostOf(ctx));
  } catch (error) {
    if (error instanceof RolesConfigError) throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
}

import { homedir } from 'node:os';
import { join } from 'node:path';
import { capabilities } from '../seam/capabilities.js';
import { LockedFsBackend, type LockedFsBackendOptions } from './locked-fs-backend.js';

export const DEVICE_LOCAL_PROTOCOL = 'device-local';

/** The device-local root: argument → `AGENTM_DEVICE_LOCAL_ROOT` → `~/.agentm/memory`. */
export function deviceLocalRoot(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (explicit !== undefined && explicit !== '') return explicit;
  const fromEnv = env['AGENTM_DEVICE_LOCAL_ROOT'];
  if (fromEnv !== undefined && fromEnv.trim() !== '') return fromEnv.trim();
  return join(home, '.agentm', 'memory');
}

/**
 * The fresh-install default: Markdown under a directory on this device, never synced. Every write
 * takes the store's lock and lands by compare-and-swap, as the vault's do: on one machine the CLI,
 * `agentm mcp`, the hooks and the editors write it concurrently. A deliberate divergence from agentm,
 * whose device-local writes take no lock (it predates those writers). The capabilities stay agentm's
 * (all false): a Python agentm writing the same store takes no lock, so concurrent writers are only
 * safe among AgentM's own.
 */
export class DeviceLocalBackend extends LockedFsBackend {
  /** What every instance advertises, readable before construction (selection checks it without creating the root). */
  static readonly declaredCapabilities = capabilities();
  readonly capabilities = DeviceLocalBackend.declaredCapabilities;

  constructor(options: LockedFsBackendOptions = {}) {
    super(deviceLocalRoot(typeof options.root === 'string' ? options.root : undefined), options);
  }
}

import { builtinBackends, deviceLocalRoot } from '../backends/builtins.js';
import { defaultLockRoot } from '../write-protocol/vault-lock.js';
import type { BackendClass, BackendOptions, StorageBackend } from '../seam/backend.js';
import { missingCapabilities, type Capabilities } from '../seam/capabilities.js';
import type { BackendRegistry } from '../seam/registry.js';
import { processHost, type HostEnv } from '../config/host.js';
import { KEY_VAULT_PATH } from '../config/keys.js';
import { chooseProtocol, type ProtocolChoice } from './choose-protocol.js';
import { CapabilityMismatchError, StorageSelectionError } from './errors.js';

export interface SelectOptions {
  /** Environment and home (default: this process). */
  readonly host?: HostEnv;
  /** Where protocol names are looked up (default: a fresh registry with the built-ins, see `builtinBackends`). */
  readonly registry?: BackendRegistry;
  /** Capabilities the caller cannot work without. */
  readonly required?: Partial<Capabilities>;
  /** The device-local root (default: `AGENTM_DEVICE_LOCAL_ROOT` → `~/.agentm/memory`). */
  readonly deviceLocalRoot?: string;
  /** The lock root of the vault and device-local stores (default: `$XDG_CACHE_HOME/agentm/locks` → `~/.cache/agentm/locks`). */
  readonly lockRoot?: string;
  /** Create the backend's root at construction (default true). Read-only callers pass false. */
  readonly createRoot?: boolean;
}

/** A produced backend and how it was chosen. */
export interface SelectedBackend {
  readonly backend: StorageBackend;
  readonly protocol: string;
  readonly origin: string;
  /** The store root shown to people (memory root or device-local root), when the backend has one. */
  readonly root: string | undefined;
  readonly choice: ProtocolChoice;
}

/** Everything selection decided before constructing anything. */
export interface SelectionPlan {
  readonly choice: ProtocolChoice;
  readonly protocol: string;
  readonly origin: string;
  readonly backendClass: BackendClass;
  readonly constructorOptions: BackendOptions;
  readonly root: string | undefined;
  /** The store's name when it has no root on this machine (a database URL without a password). */
  readonly store?: string;
}

/**
 * Decides the backend without constructing it (shared by `selectBackend` and `storagePreview`, so the
 * preview shows exactly the refusal the runtime would throw). Throws `StorageSelectionError`.
 */
export async function planSelection(options: SelectOptions = {}): Promise<SelectionPlan> {
  const host = options.host ?? processHost();
  const registry = options.registry ?? builtinBackends();
  const choice = await chooseProtocol(host);
  const { protocol, origin } = choice;
  const backendClass = registry.get(protocol);
  if (backendClass === undefined) {
    const registered = registry.protocols();
    throw new StorageSelectionError(
      'unregistered',
      protocol,
      `storage backend '${protocol}' is selected (${origin}${origin.startsWith('configured') ? ` in ${choice.configFile}` : ''}) but no installed plugin registers it. ` +
        `Install the plugin that provides '${protocol}', or set storage.backend to an installed backend (agentm config set storage.backend <name>). ` +
        `Registered backends: ${registered.length ? registered.join(', ') : '(none)'}. Refusing to demote to device-local.`,
    );
  }
  const createRoot = options.createRoot === false ? { createRoot: false } : {};
  if (protocol === 'vault') {
    if (choice.memoryRoot === undefined) throw noVaultPath(choice);
    return {
      choice,
      protocol,
      origin,
      backendClass,
      root: choice.memoryRoot,
      constructorOptions: {
        root: choice.memoryRoot,
        personalRoot: choice.vault.path,
        lockRoot: options.lockRoot ?? defaultLockRoot(host.env as NodeJS.ProcessEnv, host.home),
        ...createRoot,
      },
    };
  }
  if (protocol === 'device-local') {
    const root = deviceLocalRoot(options.deviceLocalRoot, host.env as NodeJS.ProcessEnv, host.home);
    const lockRoot = options.lockRoot ?? defaultLockRoot(host.env as NodeJS.ProcessEnv, host.home);
    return { choice, protocol, origin, backendClass, root, constructorOptions: { root, lockRoot, ...createRoot } };
  }
  // Any other backend (postgres, a plug-in) reads its own keys from the config and the environment.
  const constructorOptions = { ...createRoot, config: choice.config, env: host.env, home: host.home };
  const store = backendClass.describeStore?.(constructorOptions);
  return { choice, protocol, origin, backendClass, root: undefined, constructorOptions, ...(store ? { store } : {}) };
}

function noVaultPath(choice: ProtocolChoice): StorageSelectionError {
  const why = choice.vault.envSet
    ? 'MEMORY_VAULT_PATH does not name an existing directory'
    : `${KEY_VAULT_PATH} in ${choice.configFile} is not set to an existing directory`;
  return new StorageSelectionError(
    'no-vault-path',
    'vault',
    `'vault' is selected (${choice.origin}) but no vault_path is configured to seed it: ${why}. ` +
      `Set ${KEY_VAULT_PATH} with: agentm config set vault_path <dir> (an existing vault directory), ` +
      'or change storage.backend (agentm config set storage.backend device-local). Refusing to demote to device-local.',
  );
}

/** The capabilities a class declares statically (read before construction), if it does. */
function declaredCapabilities(cls: BackendClass): Capabilities | undefined {
  const declared = cls.declaredCapabilities;
  return typeof declared === 'object' && declared !== null ? declared : undefined;
}

/**
 * Produces the configured backend: explicit `storage.backend` → `MEMORY_VAULT_PATH` → legacy-only
 * `vault_path` → `device-local`. Refuses with `StorageSelectionError` (unregistered protocol, vault
 * without a vault path, corrupt config) and `CapabilityMismatchError` (a `required` flag missing),
 * constructing nothing on a refusal (for the built-ins, capabilities are checked before construction,
 * so not even the device-local root appears).
 */
export async function selectBackend(options: SelectOptions = {}): Promise<SelectedBackend> {
  const plan = await planSelection(options);
  const required = options.required ?? {};
  const declared = declaredCapabilities(plan.backendClass);
  if (declared) {
    const missing = missingCapabilities(required, declared);
    if (missing.length) throw new CapabilityMismatchError(plan.protocol, missing);
  }
  const backend = new plan.backendClass(plan.constructorOptions);
  const missing = missingCapabilities(required, backend.capabilities);
  if (missing.length) throw new CapabilityMismatchError(plan.protocol, missing);
  return { backend, protocol: plan.protocol, origin: plan.origin, root: plan.root, choice: plan.choice };
}

import type { StorageBackend } from '../seam/backend.js';
import { BackendRegistry } from '../seam/registry.js';
import { DEVICE_LOCAL_PROTOCOL, DeviceLocalBackend } from './device-local.js';
import { MemoryBackend } from './memory-backend.js';
import { POSTGRES_PROTOCOL, PostgresBackend } from './postgres/postgres-backend.js';
import { VAULT_PROTOCOL, VaultBackend } from './vault.js';

/**
 * Registers the built-in backends (`device-local`, `vault`, `postgres`) into a registry that lacks them.
 * Registering `postgres` loads no driver: the backend imports it on its first connection.
 */
export function registerBuiltinBackends(registry: BackendRegistry): BackendRegistry {
  if (!registry.has(DEVICE_LOCAL_PROTOCOL)) registry.register(DEVICE_LOCAL_PROTOCOL, DeviceLocalBackend);
  if (!registry.has(VAULT_PROTOCOL)) registry.register(VAULT_PROTOCOL, VaultBackend);
  if (!registry.has(POSTGRES_PROTOCOL)) registry.register(POSTGRES_PROTOCOL, PostgresBackend);
  return registry;
}

/**
 * A fresh registry holding the built-in backends: what a workspace (and selection, by default) looks
 * protocol names up in. Nothing is registered at import time and no registry is shared between callers.
 */
export function builtinBackends(): BackendRegistry {
  return registerBuiltinBackends(new BackendRegistry());
}

/**
 * An empty in-memory store for work that must not touch a disk (the harness's eval and replay fixtures).
 * Typed as the seam: callers above the backends never see the concrete class.
 */
export function scratchBackend(): StorageBackend {
  return new MemoryBackend();
}

/**
 * A folder on this machine as a store (a vault's memory root): the vault backend, so its writes take the
 * vault lock like every agentm writer's (an agent on that vault is excluded, not raced). For the export
 * to and the import from a folder; `createRoot: false` never creates it.
 */
export function folderStore(root: string, options: { lockRoot: string; createRoot?: boolean }): StorageBackend {
  return new VaultBackend({ root, lockRoot: options.lockRoot, createRoot: options.createRoot !== false });
}

/** What the layers above need to know of the built-ins without naming their classes. */
export { DEVICE_LOCAL_PROTOCOL, deviceLocalRoot } from './device-local.js';
export { VAULT_PROTOCOL } from './vault.js';
export { POSTGRES_PROTOCOL } from './postgres/postgres-backend.js';
export {
  DEFAULT_SCHEMA as POSTGRES_DEFAULT_SCHEMA,
  ENV_PG_URL,
  KEY_PG_LEASE_MS,
  KEY_PG_SCHEMA,
  KEY_PG_URL,
  postgresSettings,
} from './postgres/settings.js';

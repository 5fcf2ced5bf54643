import { defaultRegistry } from '../seam/registry.js';
import { DEVICE_LOCAL_PROTOCOL, DeviceLocalBackend } from './device-local.js';
import { VAULT_PROTOCOL, VaultBackend } from './vault.js';

export * from './errors.js';
export * from './fs-backend.js';
export * from './device-local.js';
export * from './vault.js';
export * from './memory-backend.js';
export * from './personal-write.js';
export * from './conformance.js';

/** The built-in backends, registered into the default registry when core loads. */
if (!defaultRegistry.has(DEVICE_LOCAL_PROTOCOL)) defaultRegistry.register(DEVICE_LOCAL_PROTOCOL, DeviceLocalBackend);
if (!defaultRegistry.has(VAULT_PROTOCOL)) defaultRegistry.register(VAULT_PROTOCOL, VaultBackend);

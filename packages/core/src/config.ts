/**
 * @agentm/core/config — the shared `.agentm-config.json` (read it, write keys through core's writer), the
 * roots it names, the store it selects, a project's binding and the storage preview the doctor shows. A
 * front end that has a workspace asks it first; this is for choosing and writing the configuration itself.
 */
export { configFilePath, readConfigTolerant, type ConfigData } from './config/config-file.js';
export { getConfigValue, setConfigValues } from './config/config-writer.js';
export { KEY_MEMORY_ROOT } from './config/keys.js';
export { resolveVault, validateRelativePrefix } from './config/roots.js';
export { selectBackend, type SelectedBackend } from './selection/select-backend.js';
export { storagePreview, type CheckStatus } from './selection/storage-preview.js';
export { isSafeSegment } from './routing/slug.js';
export { bindProject, type ProjectBinding } from './routing/project-binding.js';
export type { ProjectResolution } from './routing/resolve-project.js';

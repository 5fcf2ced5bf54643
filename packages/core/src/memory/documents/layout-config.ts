import type { ConfigData } from '../../config/config-file.js';
import { spacePath } from '../../config/roots.js';
import { projectsSpaceRungs } from '../../routing/resolve-project.js';
import { DEFAULT_LAYOUT, type MemoryLayout } from './layout.js';

/**
 * The memory layout a config describes: the memory space from `plugins.obsidian-vault.spaces`
 * (default `memory`) and the projects spaces in the order routing probes them (the configured one
 * first, then `desk/projects`, `projects`, `personal-projects`), so the index, consolidation and the
 * belief store look where `save` and the harness write.
 */
export function memoryLayoutFromConfig(config: ConfigData = {}): MemoryLayout {
  return {
    ...DEFAULT_LAYOUT,
    memorySpace: spacePath('memory', config),
    projectSpaces: projectsSpaceRungs(config).map((r) => r.path),
  };
}

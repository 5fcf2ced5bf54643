import type { StorageBackend } from '../seam/backend.js';
import type { ConfigData } from '../config/config-file.js';
import type { HostEnv } from '../config/host.js';
import type { SelectedBackend } from '../selection/select-backend.js';
import { probeProjectLocator, resolveProject, type ProjectResolution } from '../routing/resolve-project.js';
import { readProjectSlug } from '../routing/slug.js';

/**
 * The project of a workspace's repository (slug from `.harness/project.json`, `github.repo` or the git
 * origin; its folder probed in the projects spaces). Undefined without a repository; a repository
 * without a slug resolves with `slug` undefined. A store the host brought (no selection) gets the same
 * slug rules and probe, without a selection to report.
 */
export async function resolveWorkspaceProject(
  ws: {
    readonly projectRoot: string | undefined;
    readonly host: HostEnv;
    readonly config: ConfigData;
    readonly backend: StorageBackend;
    readonly selection: SelectedBackend | undefined;
  },
  gitRemoteOption?: (projectRoot: string) => Promise<string | undefined>,
): Promise<ProjectResolution | undefined> {
  const projectRoot = ws.projectRoot;
  if (projectRoot === undefined) return undefined;
  const gitRemote = gitRemoteOption ? { gitRemote: gitRemoteOption } : {};
  const selection = ws.selection;
  if (selection)
    return resolveProject({ cwd: projectRoot, host: ws.host, select: async () => selection, ...gitRemote });
  const found = await readProjectSlug(projectRoot, { env: ws.host.env, ...gitRemote });
  const base = { projectRoot, host: ws.host, selection: undefined };
  if (found === undefined)
    return {
      ...base,
      slug: undefined,
      slugSource: undefined,
      projectLocator: undefined,
      backend: undefined,
      layout: 'none',
    };
  const { locator, layout } = await probeProjectLocator(ws.backend, found.slug, ws.config);
  return { ...base, slug: found.slug, slugSource: found.source, projectLocator: locator, backend: ws.backend, layout };
}

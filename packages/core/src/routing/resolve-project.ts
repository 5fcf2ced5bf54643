import { resolve } from 'node:path';
import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import type { ConfigData } from '../config/config-file.js';
import { ConfigError } from '../config/errors.js';
import { processHost, type HostEnv } from '../config/host.js';
import { spacePath } from '../config/roots.js';
import { StorageSelectionError } from '../selection/errors.js';
import { selectBackend, type SelectedBackend, type SelectOptions } from '../selection/select-backend.js';
import { readProjectSlug, type SlugOptions } from './slug.js';

/** Which rung of the projects-space probe a project lives on. */
export type ProjectLayout = 'new' | 'intermediate' | 'legacy' | 'none';

/** The projects space, newest layout first; reads and writes probe the same rungs. */
export const PROJECTS_SPACE_RUNGS: ReadonlyArray<{
  readonly path: string;
  readonly layout: Exclude<ProjectLayout, 'none'>;
}> = [
  { path: 'desk/projects', layout: 'new' },
  { path: 'projects', layout: 'intermediate' },
  { path: 'personal-projects', layout: 'legacy' },
];

/** Where a repo's project lives: its slug, the backend and the project's locator in it. */
export interface ProjectResolution {
  readonly slug: string | undefined;
  /** Where the slug came from (for people). */
  readonly slugSource: string | undefined;
  readonly projectLocator: Locator | undefined;
  readonly backend: StorageBackend | undefined;
  /** The repo root (absolute). */
  readonly projectRoot: string;
  readonly layout: ProjectLayout;
  /** How the backend was selected; undefined when no slug resolved (selection is not even tried). */
  readonly selection: SelectedBackend | undefined;
  readonly host: HostEnv;
  /**
   * What the backend's constructor threw, when producing it failed (layout `none`: state routes to the
   * repo's `.harness/`). Absent otherwise. A caller that reports or writes state should say so.
   */
  readonly backendError?: unknown;
}

export interface ResolveProjectOptions extends SelectOptions, SlugOptions {
  /** The repo root (default: the process cwd). */
  readonly cwd?: string;
  /** How the backend is produced (default: `selectBackend`). */
  readonly select?: (options: SelectOptions) => Promise<SelectedBackend>;
}

/** The probe rungs: the configured projects space first (when it differs), then the three layouts. */
export function projectsSpaceRungs(
  config: ConfigData = {},
): ReadonlyArray<{ readonly path: string; readonly layout: Exclude<ProjectLayout, 'none'> }> {
  return rungs(config);
}

function rungs(config: ConfigData): ReadonlyArray<{ path: string; layout: Exclude<ProjectLayout, 'none'> }> {
  const configured = spacePath('projects', config);
  const builtIn = PROJECTS_SPACE_RUNGS.some((r) => r.path === configured);
  return builtIn ? PROJECTS_SPACE_RUNGS : [{ path: configured, layout: 'new' }, ...PROJECTS_SPACE_RUNGS];
}

/**
 * The project folder of `slug`: the first rung where `<space>/<slug>` exists, else the first rung
 * (where a write creates it). The same function serves reads and writes, so they never disagree.
 */
export async function probeProjectLocator(
  backend: StorageBackend,
  slug: string,
  config: ConfigData = {},
): Promise<{ locator: Locator; layout: Exclude<ProjectLayout, 'none'> }> {
  const all = rungs(config);
  for (const rung of all) {
    const locator = backend.resolve(rung.path, slug);
    if (await backend.exists(locator)) return { locator, layout: rung.layout };
  }
  return { locator: backend.resolve(all[0]!.path, slug), layout: all[0]!.layout };
}

/** The projects space itself: the first rung that exists, else the first rung. */
export async function projectsSpace(backend: StorageBackend, config: ConfigData = {}): Promise<Locator> {
  const all = rungs(config);
  for (const rung of all) {
    const locator = backend.resolve(rung.path);
    if (await backend.exists(locator)) return locator;
  }
  return backend.resolve(all[0]!.path);
}

/**
 * Resolves a repo to its project: `{slug, projectLocator, backend, projectRoot, layout}`. No slug →
 * everything undefined and layout `none`, without selecting a backend. A misconfiguration propagates:
 * selection's refusals (`StorageSelectionError`, `CapabilityMismatchError`) and config errors (a broad
 * catch here once degraded a misconfigured vault to repo-local state: split-brain). Anything else thrown
 * while producing the backend — a registered backend's constructor blowing up — degrades, as agentm's
 * `resolve_project` does, to the slug with no backend and layout `none` (the error in `backendError`), so
 * a session still starts. Read-only.
 */
export async function resolveProject(options: ResolveProjectOptions = {}): Promise<ProjectResolution> {
  const host = options.host ?? processHost();
  const projectRoot = resolve(options.cwd ?? process.cwd());
  const found = await readProjectSlug(projectRoot, { ...options, env: options.env ?? host.env });
  const none = {
    projectLocator: undefined,
    backend: undefined,
    layout: 'none' as const,
    selection: undefined,
    projectRoot,
    host,
  };
  if (found === undefined) return { ...none, slug: undefined, slugSource: undefined };
  let selection: SelectedBackend;
  try {
    selection = await (options.select ?? selectBackend)({ ...options, host });
  } catch (error) {
    if (error instanceof StorageSelectionError || error instanceof ConfigError) throw error;
    return { ...none, slug: found.slug, slugSource: found.source, backendError: error };
  }
  const { locator, layout } = await probeProjectLocator(selection.backend, found.slug, selection.choice.config);
  return {
    slug: found.slug,
    slugSource: found.source,
    projectLocator: locator,
    backend: selection.backend,
    projectRoot,
    layout,
    selection,
    host,
  };
}

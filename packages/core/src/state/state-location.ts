import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import { configStateMode, normalizeStateMode } from '../config/state-mode.js';
import type { ProjectResolution } from '../routing/resolve-project.js';

/**
 * Where a project's harness state lives: through a synced backend, or in the repo's `.harness/`. `path`
 * is what people are shown: a directory under the store's root, or for a store without one (a database)
 * `<store id>#<key>`; `stateFilePath` adds a file name to it.
 */
export type StateLocation =
  | { readonly kind: 'backend'; readonly backend: StorageBackend; readonly dir: Locator; readonly path: string }
  | { readonly kind: 'local'; readonly dir: string };

/** A state file's path as shown to people (see `StateLocation`). */
export function stateFilePath(location: StateLocation, fileName: string): string {
  if (location.kind === 'local') return join(location.dir, fileName);
  return location.backend.localRoot ? join(location.path, fileName) : `${location.path}/${fileName}`;
}

/** `<repo>/.harness`. */
export function localHarnessDir(projectRoot: string): string {
  return join(projectRoot, '.harness');
}

/** The repo's `.harness/.project-mode` marker (trimmed, lower-cased, `vault` → `backend`), or undefined when absent or blank. */
export async function readProjectMode(projectRoot: string): Promise<string | undefined> {
  try {
    return normalizeStateMode(await readFile(join(localHarnessDir(projectRoot), '.project-mode'), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The effective state mode: the repo marker (if non-blank) else config `state_mode`. Only on-host
 * sources; never inferred from a missing vault (an unmounted drive must not flip a repo to local).
 */
export async function effectiveStateMode(resolution: ProjectResolution): Promise<string | undefined> {
  return (await readProjectMode(resolution.projectRoot)) ?? configStateMode(resolution.selection?.choice.config ?? {});
}

/**
 * Where state goes (DESIGN §7): mode `local` wins; else a backend with `capabilities.sync` (and a store
 * root or store id to show) holds it in `<project>/_harness/`; else `<repo>/.harness/`. Keyed on the
 * capability, never on the backend's class, so routing never imports a concrete backend.
 */
export async function stateLocation(resolution: ProjectResolution): Promise<StateLocation> {
  const local: StateLocation = { kind: 'local', dir: localHarnessDir(resolution.projectRoot) };
  if ((await effectiveStateMode(resolution)) === 'local') return local;
  const { backend, projectLocator } = resolution;
  if (backend === undefined || projectLocator === undefined) return local;
  let synced = false;
  try {
    synced = backend.capabilities.sync === true;
  } catch {
    synced = false; // a backend that cannot say what it offers is not a state home
  }
  const root = backend.localRoot || undefined;
  const store = root ?? (backend.storeId || undefined);
  if (!synced || store === undefined) return local;
  const dir = projectLocator.child('_harness');
  return { kind: 'backend', backend, dir, path: root !== undefined ? join(root, ...dir.parts) : `${store}#${dir.key}` };
}

import { TFile } from 'obsidian';
import { isSafeSegment } from '@agentm/core/config';
import { type Workspace } from '@agentm/core';
import { ProjectSettingError } from '../errors.js';
import type { ServiceDeps } from './deps.js';

/** The project the commands work on. */
export interface CurrentProject {
  readonly slug: string;
  /** Its folder, relative to the memory root (e.g. `desk/projects/agentm`). */
  readonly dir: string;
  readonly source: 'active-file' | 'setting';
}

/** The project a memory-root-relative path lies in (`<space>/<slug>/…`), if any. Pure. */
export function projectOfPath(path: string, spaces: readonly string[]): { slug: string; dir: string } | undefined {
  const parts = path.split('/');
  for (const space of spaces) {
    const prefix = space.split('/');
    if (parts.length < prefix.length + 2 || !prefix.every((p, i) => parts[i] === p)) continue;
    const slug = parts[prefix.length]!;
    if (isSafeSegment(slug) && !slug.startsWith('.')) return { slug, dir: `${space}/${slug}` };
  }
  return undefined;
}

/** A vault path relative to the memory root folder, or undefined when it lies outside it. */
export function relativeToRoot(path: string, folder: string): string | undefined {
  if (folder === '') return path;
  return path.startsWith(`${folder}/`) ? path.slice(folder.length + 1) : undefined;
}

/**
 * The current project: the one whose folder holds `path` (default: the active file; under one of the workspace's
 * projects spaces, in core's probe order: the configured one first, then `desk/projects`, `projects`,
 * `personal-projects`), else the "Default project" setting (its folder probed like core's
 * `resolveProject`). Undefined when neither names one. Throws `ProjectSettingError` for a setting that
 * is not one safe folder name.
 */
export async function currentProject(
  deps: ServiceDeps,
  ws: Workspace,
  path: string | undefined = activePath(deps),
): Promise<CurrentProject | undefined> {
  const { folder } = deps.context();
  const rel = path === undefined ? undefined : relativeToRoot(path, folder);
  const found = rel === undefined ? undefined : projectOfPath(rel, ws.layout.projectSpaces);
  if (found) return { ...found, source: 'active-file' };
  const slug = deps.settings().defaultProject.trim();
  if (slug === '') return undefined;
  if (!isSafeSegment(slug)) throw new ProjectSettingError(slug);
  return { slug, dir: (await ws.projectFolder(slug)).key, source: 'setting' };
}

function activePath(deps: ServiceDeps): string | undefined {
  const active = deps.app.workspace.getActiveFile();
  return active instanceof TFile ? active.path : undefined;
}

import { readdir } from 'node:fs/promises';
import { isTempName } from '../write-protocol/atomic-write.js';
import { recognizeConflictName } from '../write-protocol/conflict-names.js';
import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import type { ProjectResolution } from '../routing/resolve-project.js';
import { stateLocation } from './state-location.js';

const NAMED_PLAN = /^PLAN-.+\.md$/;

function isConflictCopy(name: string, present: ReadonlySet<string>): boolean {
  const match = recognizeConflictName(name, (original) => present.has(original));
  // `PLAN-API.md` beside `PLAN.md` looks like OneDrive's "keep both" suffix, but PLAN-<name>.md is
  // the named-plan convention: a plan, not a copy of PLAN.md.
  return match !== undefined && !(match.family === 'onedrive' && match.original === 'PLAN.md');
}

/**
 * The plan files among a directory's entry names: `PLAN.md` first (if present), then `PLAN-*.md` in
 * code-point order. Archives (`PLAN.archive.*`), temps and sync conflict copies
 * (`PLAN-foo (conflicted copy …).md`, `PLAN-foo 2.md` beside `PLAN-foo.md`, …) are excluded. Pure.
 */
export function selectPlanFiles(names: readonly string[], isFile: (name: string) => boolean = () => true): string[] {
  const present = new Set(names);
  const named = names
    .filter((n) => NAMED_PLAN.test(n) && isFile(n) && !isTempName(n))
    .filter((n) => !isConflictCopy(n, present))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return present.has('PLAN.md') && isFile('PLAN.md') ? ['PLAN.md', ...named] : named;
}

/** The plan file names of a store folder (`[]` when it does not exist): folders named like plans are not plans. */
export async function listStorePlanFiles(backend: StorageBackend, dir: Locator): Promise<string[]> {
  const children = await backend.list(dir);
  const dirs = new Set<string>();
  for (const child of children) if ((await backend.info(child)).isDir) dirs.add(child.name);
  return selectPlanFiles(
    children.map((c) => c.name),
    (n) => !dirs.has(n),
  );
}

/** The plan file names of a project's routed state directory (`[]` when it does not exist). */
export async function listPlans(resolution: ProjectResolution): Promise<string[]> {
  const location = await stateLocation(resolution);
  if (location.kind === 'backend') return listStorePlanFiles(location.backend, location.dir);
  try {
    const entries = await readdir(location.dir, { withFileTypes: true });
    const files = new Set(entries.filter((e) => e.isFile()).map((e) => e.name));
    return selectPlanFiles(
      entries.map((e) => e.name),
      (n) => files.has(n),
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return [];
    throw error;
  }
}

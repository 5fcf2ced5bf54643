import { joinVaultPath, nameOf, parentOf } from '../vault-paths.js';

const HARNESS_STATE = /^(PLAN|progress)(?:-([^/]+))?\.md$/;

/**
 * The progress log a resolution is recorded in, when `originalPath` is harness state
 * (`…/_harness/PLAN.md`, `PLAN-<name>.md`, `progress.md`, `progress-<name>.md`): the sibling
 * `progress.md` or `progress-<name>.md`. `undefined` for any other file.
 */
export function progressLogFor(originalPath: string): string | undefined {
  const folder = parentOf(originalPath);
  if (nameOf(folder) !== '_harness') return undefined;
  const match = HARNESS_STATE.exec(nameOf(originalPath));
  if (!match) return undefined;
  return joinVaultPath(folder, match[2] === undefined ? 'progress.md' : `progress-${match[2]}.md`);
}

/** One Markdown list line recording a resolution (UTC timestamp, what was kept, what was removed). */
export function resolutionLine(when: Date, action: string, originalPath: string, copyPath: string): string {
  return `- ${when.toISOString()} conflict resolved in Obsidian (agentm-vault): ${action} for ${nameOf(originalPath)}; removed the copy "${nameOf(copyPath)}"`;
}

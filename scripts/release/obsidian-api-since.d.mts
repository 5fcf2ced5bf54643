export const PLUGIN_DIR: string;
export interface ApiUse {
  /** e.g. `Vault.process`. */
  readonly api: string;
  /** The obsidian.d.ts `@since` version. */
  readonly since: string;
  /** `src/file.ts:line`, with ` (override)` for a method that overrides the API. */
  readonly where: string;
}
export function compareVersions(a: string, b: string): -1 | 0 | 1;
export function obsidianApiUses(pluginDir?: string, extraSources?: Record<string, string>): ApiUse[];
export function minAppVersionProblems(minAppVersion: string, uses: readonly ApiUse[]): string[];
export function newestSince(uses: readonly ApiUse[]): string;

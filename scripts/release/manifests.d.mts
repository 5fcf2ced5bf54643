export const PACKAGE_JSONS: string[];
export const OBSIDIAN_MANIFEST: string;
export const OBSIDIAN_VERSIONS: string;
export const ROOT_COPIES: Record<string, string>;
export const CLAUDE_PLUGIN: string;
export const MARKETPLACE: string;
export const VERSION_PATTERN: RegExp;
export function checkVersion(version: unknown): string;
/** Every stated version as [where, version]. */
export function statedVersions(root: string): Array<[string, string]>;
/** What keeps `root` from releasing `expected` (default: core's version), each naming the fix. */
export function problems(root: string, expected?: string): string[];

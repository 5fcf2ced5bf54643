export const OBSIDIAN_FILES: string[];
export function cliProblems(files: readonly string[], manifest: Record<string, unknown>): string[];
export function vsixProblems(entries: readonly string[]): string[];
export function obsidianProblems(files: readonly string[], mainJs?: string): string[];

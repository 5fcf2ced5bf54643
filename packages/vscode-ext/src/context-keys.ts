import * as vscode from 'vscode';

/** The last value the extension set for each of its context keys (the inspect command reports them). */
const values = new Map<string, unknown>();

/**
 * Sets a context key for `when` clauses (menus, palette, welcome views) and remembers it: VS Code has no
 * API to read a context key back, so the tests and bug reports read what the extension set.
 */
export async function setContextKey(key: string, value: unknown): Promise<void> {
  values.set(key, value);
  await vscode.commands.executeCommand('setContext', key, value);
}

/** Every context key the extension set, with its latest value. */
export function contextKeys(): Readonly<Record<string, unknown>> {
  return Object.fromEntries(values);
}

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';

export const EXTENSION_ID = 'agentm.agentm-vscode';

export function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`extension ${EXTENSION_ID} is not loaded`);
  return ext;
}

/** The repository root (the extension is packages/vscode-ext), for fixtures under test/. */
export function repoRoot(): string {
  return resolve(extension().extensionPath, '..', '..');
}

export interface Inspection {
  readonly activation: {
    readonly moduleToActivatedMs: number | undefined;
    readonly moduleEvalMs: number | undefined;
    readonly activateMs: number | undefined;
    readonly activateToStatusMs: number | undefined;
    readonly marks: Record<string, number>;
  };
  readonly statusBar: { readonly text: string; readonly tooltip: string; readonly state: string };
  readonly messages: readonly { readonly severity: string; readonly text: string; readonly userStarted: boolean }[];
  readonly hasApiKey: boolean;
  readonly wired: Record<string, boolean>;
}

export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; reason: string; message: string };

/** Runs an AgentM command and returns its outcome (every AgentM command resolves with one). */
export async function run<T = unknown>(command: string, ...args: unknown[]): Promise<Outcome<T>> {
  return (await vscode.commands.executeCommand(command, ...args)) as Outcome<T>;
}

export async function inspect(): Promise<Inspection> {
  const outcome = await run<Inspection>('agentm.inspect');
  if (!outcome.ok) throw new Error(`agentm.inspect failed: ${outcome.message}`);
  return outcome.value;
}

/** Polls `probe` until it returns a defined value; fails naming `what` and the last value seen. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function setVaultPath(path: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('agentm').update('vault.path', path, vscode.ConfigurationTarget.Global);
}

/** Waits until the status bar shows `state` (and, when given, text containing `text`). */
export function waitForStatus(state: string, text?: string, timeoutMs = 10_000): Promise<Inspection> {
  return waitFor(`status bar state '${state}'${text ? ` with '${text}'` : ''}`, async () => {
    const i = await inspect();
    return i.statusBar.state === state && (!text || i.statusBar.text.includes(text)) ? i : undefined;
  }, timeoutMs);
}

const made: string[] = [];
export function tempDir(prefix = 'agentm-itest-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ActivationReport } from '../../src/perf';
import type { ItemSnapshot } from '../../src/views/snapshot';

export type { ItemSnapshot };

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

export interface ViewSnapshot {
  readonly state: string | undefined;
  readonly loadedAt: number | undefined;
  readonly loads: number;
  readonly items: readonly ItemSnapshot[];
}

export interface Inspection {
  readonly activation: ActivationReport;
  readonly statusBar: { readonly text: string; readonly tooltip: string; readonly state: string };
  readonly messages: readonly {
    readonly severity: string;
    readonly text: string;
    readonly userStarted: boolean;
    readonly actions?: readonly string[];
  }[];
  readonly hasApiKey: boolean;
  readonly views: { readonly plan: ViewSnapshot; readonly recall: ViewSnapshot };
  readonly watched: readonly { readonly base: string; readonly pattern: string }[];
  readonly index: {
    readonly state: string;
    readonly dir: string | undefined;
    readonly documents: number;
    readonly memoryRoot: string | undefined;
  };
  readonly running: readonly string[];
  /** What the latest run wrote to the "AgentM run" channel (its last characters). */
  readonly runLog: string;
  /** This window's memory root and lock directory, as its workspace opened them. */
  readonly storage: { readonly memoryRoot?: string; readonly lockDir?: string };
  readonly runStatus: {
    readonly visible: boolean;
    readonly text: string;
    readonly tooltip: string;
    readonly command: string | undefined;
    readonly arguments: readonly unknown[];
  };
  /** The context keys the extension set (for `when` clauses), with their latest values. */
  readonly contextKeys: Readonly<Record<string, unknown>>;
  readonly savePrompt: {
    readonly step: number;
    readonly kinds: readonly { readonly label: string; readonly description: string | undefined }[];
    readonly suggestedSlug: string;
    readonly where: string;
  };
  readonly recallPick: {
    readonly open: boolean;
    readonly value: string;
    readonly items: readonly string[];
    readonly searches: number;
    readonly active: string | undefined;
  };
}

export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; reason: string; message: string };

/** Runs an AgentM command and returns its outcome (every AgentM command resolves with one). */
export async function run<T = unknown>(command: string, ...args: unknown[]): Promise<Outcome<T>> {
  return (await vscode.commands.executeCommand(command, ...args)) as Outcome<T>;
}

/** Runs a command that must succeed; fails with its message otherwise. */
export async function ok<T = unknown>(command: string, ...args: unknown[]): Promise<T> {
  const outcome = await run<T>(command, ...args);
  if (!outcome.ok) throw new Error(`${command} failed: ${outcome.message}`);
  return outcome.value;
}

export async function inspect(): Promise<Inspection> {
  const outcome = await run<Inspection>('agentm.inspect');
  if (!outcome.ok) throw new Error(`agentm.inspect failed: ${outcome.message}`);
  return outcome.value;
}

/** Polls `probe` until it returns a defined value; fails naming `what` and the last value seen. */
export async function waitFor<T>(
  what: string | (() => Promise<string>),
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : await what()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Opens the Recall… quick pick on `query` and waits until it lists `expected` (from a search that ran
 * after it opened) and the window has shown those items: it reports an active one. The extension host
 * sends items to the window a moment after they are set, and an Enter sent in between finds none.
 * VS Code hides a quick pick that loses focus, and a view that takes focus just then (a tree refreshing after the world changed) can close it before its first search: then it is
 * opened again, up to three times. Resolves with what the pick shows and the command's outcome, which
 * settles once the pick is accepted or closed.
 */
export async function openRecallPick(
  query: string,
  expected: string,
): Promise<{ readonly pick: Inspection['recallPick']; readonly picked: Promise<Outcome<string>> }> {
  for (let attempt = 1; ; attempt++) {
    const before = (await inspect()).recallPick.searches;
    let settled = false;
    const picked = run<string>('agentm.recall', query).finally(() => (settled = true));
    const pick = await waitFor(
      async () =>
        `the quick pick to list ${JSON.stringify(expected)}; it shows ${JSON.stringify((await inspect()).recallPick)}`,
      async () => {
        const p = (await inspect()).recallPick;
        if (p.open && p.value === query && p.searches > before && p.items.includes(expected) && p.active !== undefined)
          return p;
        if (settled && !p.open && attempt < 3) return null; // closed before it searched: open it again
        return undefined;
      },
    );
    if (pick !== null) return { pick, picked };
  }
}

/** The shared `.agentm-config.json` of the test's private prefix (what the agentm CLI and its agents read too). */
export function configFile(): string {
  const prefix = process.env['AGENTM_INSTALL_PREFIX'];
  if (!prefix) throw new Error('the integration tests run with a private AGENTM_INSTALL_PREFIX');
  return join(prefix, '.agentm-config.json');
}

const VAULT_KEYS = ['storage.backend', 'plugins.obsidian-vault.vault_path', 'plugins.obsidian-vault.memory_root'];

/**
 * Points the shared config at `vault` as the vault and memory root (or at none), keeping its other keys:
 * how a person's set-up looks after `agentm init`, read by VS Code, the CLI and the MCP server alike.
 */
export function useVault(vault: string | undefined): void {
  const file = configFile();
  let config: Record<string, unknown> = {};
  try {
    config = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  } catch {
    config = {}; // a test left it broken on purpose
  }
  for (const key of VAULT_KEYS) delete config[key];
  if (vault !== undefined)
    Object.assign(config, { 'storage.backend': 'vault', 'plugins.obsidian-vault.vault_path': vault });
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(config));
}

/** The `agentm.vault.path` override of this editor (undefined clears it). */
export async function setVaultPath(path: string | undefined): Promise<void> {
  await vscode.workspace.getConfiguration('agentm').update('vault.path', path, vscode.ConfigurationTarget.Global);
}

/** Waits until the status bar shows `state` (and, when given, text containing `text`). */
export function waitForStatus(state: string, text?: string, timeoutMs = 10_000): Promise<Inspection> {
  const what = async () =>
    `status bar state '${state}'${text ? ` with '${text}'` : ''}; it shows ${JSON.stringify((await inspect()).statusBar)}`;
  return waitFor(
    what,
    async () => {
      const i = await inspect();
      return i.statusBar.state === state && (!text || i.statusBar.text.includes(text)) ? i : undefined;
    },
    timeoutMs,
  );
}

/** Waits until a view has loaded and `accept` takes what it shows. */
export function waitForView(
  view: 'plan' | 'recall',
  what: string,
  accept: (v: ViewSnapshot) => boolean,
  timeoutMs = 10_000,
): Promise<ViewSnapshot> {
  const last = async () =>
    `the ${view} view to show ${what}; it shows ${JSON.stringify((await inspect()).views[view]).slice(0, 2000)}`;
  return waitFor(
    last,
    async () => {
      const v = (await inspect()).views[view];
      return accept(v) ? v : undefined;
    },
    timeoutMs,
  );
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

/** The window's folder: the repo the tests bind to a project. */
export function workspaceFolder(): string {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) throw new Error('the integration tests need a window with a folder open');
  return folder;
}

/** Points agentm's config prefix (`AGENTM_INSTALL_PREFIX`) at a fresh temp dir; returns the config file path. */
export function privateConfigPrefix(): string {
  const prefix = tempDir('agentm-itest-prefix-');
  process.env['AGENTM_INSTALL_PREFIX'] = prefix;
  return join(prefix, '.agentm-config.json');
}

export interface World {
  readonly slug: string;
  /** The memory root (a temp vault outside the workspace), laid out like agentm's. */
  readonly vault: string;
  readonly harness: string;
  readonly repo: string;
  file(relative: string, content: string): string;
}

let worlds = 0;

/**
 * A temp vault (memory root) outside the workspace with `desk/projects/<slug>/_harness/`, the window's
 * folder bound to `<slug>` by `.harness/project.json`, and the shared config naming the vault (no
 * `agentm.vault.path` override: VS Code and the agents agree).
 */
export async function makeWorld(
  files: Record<string, string> = {},
  options: { activate?: boolean } = {},
): Promise<World> {
  const slug = `itest-${process.pid}-${++worlds}`;
  const vault = tempDir('agentm-itest-vault-');
  const harness = join(vault, 'desk', 'projects', slug, '_harness');
  mkdirSync(harness, { recursive: true });
  const repo = workspaceFolder();
  const file = (relative: string, content: string) => {
    const path = join(vault, relative);
    mkdirSync(resolve(path, '..'), { recursive: true });
    writeFileSync(path, content);
    return path;
  };
  for (const [rel, content] of Object.entries(files)) file(rel, content);
  rmSync(join(repo, '.harness'), { recursive: true, force: true });
  mkdirSync(join(repo, '.harness'), { recursive: true });
  writeFileSync(join(repo, '.harness', 'project.json'), `${JSON.stringify({ vault_project: slug })}\n`);
  await setVaultPath(undefined);
  useVault(vault);
  if (options.activate !== false) await ok('agentm.refresh');
  return { slug, vault, harness, repo, file };
}

/** Unbinds the folder and clears the vault (the shared config's and the setting). */
export async function leaveWorld(): Promise<void> {
  rmSync(join(workspaceFolder(), '.harness'), { recursive: true, force: true });
  useVault(undefined);
  await setVaultPath(undefined);
  await ok('agentm.refresh');
}

/** Shows the AgentM container (both views visible), so VS Code asks the views for their items. */
export async function showViews(): Promise<void> {
  await vscode.commands.executeCommand('agentm.plan.focus');
  await vscode.commands.executeCommand('agentm.recall.focus');
}

/** Depth-first search of a snapshot for the item labelled `label`. */
export function findItem(items: readonly ItemSnapshot[], label: string): ItemSnapshot | undefined {
  for (const item of items) {
    if (item.label === label) return item;
    const inner = findItem(item.children, label);
    if (inner) return inner;
  }
  return undefined;
}

/** A request a provider endpoint received: its path, headers and JSON body. */
export interface EndpointRequest {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

/**
 * A real OpenAI-compatible endpoint on 127.0.0.1 (what `agentm.providers.baseUrl` points at): every
 * request's JSON is parsed and handed to `answer`, which gives the status and the JSON to send back.
 */
export async function providerEndpoint(
  answer: (request: EndpointRequest) => { readonly status: number; readonly json: unknown },
): Promise<{ readonly baseUrl: string; close(): void }> {
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      const { status, json } = answer({ url: req.url ?? '', headers: req.headers, body: JSON.parse(raw) });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => server.close() };
}

/**
 * Starts `agentm mcp` as VS Code's agents start it — from the extension's server definition, with an MCP
 * client (the SDK's own) — and hands the client to `work`; the server is closed afterwards.
 */
export async function withMcpServer<T>(
  definition: vscode.McpStdioServerDefinition,
  work: (client: Client) => Promise<T>,
): Promise<T> {
  const client = new Client({ name: 'agentm-itest', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: definition.command,
      args: [...definition.args],
      cwd: definition.cwd!.fsPath,
      env: { ...(process.env as Record<string, string>), ...(definition.env as Record<string, string>) },
      stderr: 'pipe',
    }),
  );
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

/** The text of an MCP tool's answer. */
export function toolText(answer: Record<string, unknown>): string {
  return ((answer['content'] ?? []) as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
}

import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { ExtensionError } from '../errors';
import { readSettings } from '../settings';
import { cliCommand, isPathCommand, type CliCommand } from './cli-command';

export const MCP_PROVIDER_ID = 'agentm.mcp';
export const MCP_SERVER_LABEL = 'AgentM';

/** The stdio definition of `agentm mcp` for this window: its CLI, the workspace folder as cwd, the vault setting. */
export function agentmServerDefinition(extension: {
  extensionPath: string;
  version: string;
}): vscode.McpStdioServerDefinition {
  const settings = readSettings();
  const cli = cliCommand(cliPathSetting(), extension.extensionPath, process.execPath);
  // The vault the extension uses, so the server sees the same store (the setting wins over the variable).
  const env: Record<string, string> = {
    ...cli.env,
    ...(settings.vaultPath ? { MEMORY_VAULT_PATH: settings.vaultPath } : {}),
  };
  const definition = new vscode.McpStdioServerDefinition(
    MCP_SERVER_LABEL,
    cli.command,
    [...cli.args, 'mcp'],
    env,
    extension.version,
  );
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (folder?.scheme === 'file') definition.cwd = folder;
  return definition;
}

export function cliPathSetting(): string {
  return vscode.workspace.getConfiguration('agentm').get<string>('cli.path', '');
}

/** Refuses to start a server whose CLI is not there, naming the setting to fix. */
function checkCli(cli: CliCommand, definition: vscode.McpStdioServerDefinition): void {
  const file = cli.source === 'bundled' || cli.args.length > 0 ? definition.args[0]! : definition.command;
  if (isPathCommand(file) && !existsSync(file))
    throw new ExtensionError(
      cli.source === 'bundled'
        ? `the agentm CLI bundled with the extension is missing (${file}); reinstall the AgentM extension, or set agentm.cli.path to an installed agentm`
        : `agentm.cli.path names ${file}, which does not exist; set it to the agentm executable (or its .js entry), or clear it to use the bundled CLI`,
    );
}

/**
 * Publishes AgentM's MCP server (`agentm mcp` over stdio) to VS Code, so MCP-aware agents find it
 * without a config file. Re-published when the CLI path, the vault or the folder changes.
 */
export class AgentMMcpProvider
  implements vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition>, vscode.Disposable
{
  readonly #changed = new vscode.EventEmitter<void>();
  readonly onDidChangeMcpServerDefinitions = this.#changed.event;
  readonly #subscriptions: vscode.Disposable[];

  constructor(private readonly extension: { extensionPath: string; version: string }) {
    this.#subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('agentm.cli.path') || e.affectsConfiguration('agentm.vault.path'))
          this.#changed.fire();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.#changed.fire()),
    ];
  }

  provideMcpServerDefinitions(): vscode.McpStdioServerDefinition[] {
    return [agentmServerDefinition(this.extension)];
  }

  resolveMcpServerDefinition(server: vscode.McpStdioServerDefinition): vscode.McpStdioServerDefinition {
    checkCli(cliCommand(cliPathSetting(), this.extension.extensionPath, process.execPath), server);
    return server;
  }

  dispose(): void {
    for (const s of this.#subscriptions) s.dispose();
    this.#changed.dispose();
  }
}

/** Registers the provider where the editor has the API (VS Code 1.101+); otherwise logs that it did not. */
export function registerMcpProvider(provider: AgentMMcpProvider, log: (line: string) => void): vscode.Disposable[] {
  if (typeof vscode.lm?.registerMcpServerDefinitionProvider !== 'function') {
    log(
      'MCP: this editor has no vscode.lm.registerMcpServerDefinitionProvider; run `agentm mcp` from its MCP config instead',
    );
    return [];
  }
  return [vscode.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider)];
}

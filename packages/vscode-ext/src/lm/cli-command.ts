// Pure: how the extension starts the `agentm` command line (for the MCP server definition). No vscode import.
import { isAbsolute, join } from 'node:path';

/** The CLI bundled in the extension (`dist/agentm.mjs`, built from the same core the extension bundles). */
export const BUNDLED_CLI = join('dist', 'agentm.mjs');

export interface CliCommand {
  readonly command: string;
  /** Arguments before the verb (the script, when Node runs it). */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** Where it came from, for messages: `bundled`, or the setting. */
  readonly source: 'bundled' | 'agentm.cli.path';
}

const SCRIPT = /\.(c|m)?js$/i;

/**
 * How to run `agentm`: the `agentm.cli.path` setting when set — an executable (`agentm` on PATH, or a
 * path), or a `.js`/`.mjs` script that the editor's Node runs — else the CLI bundled with the extension,
 * run by the editor's Node (`nodePath`; Electron runs as Node with ELECTRON_RUN_AS_NODE=1), so it is
 * always the version of the extension's own core.
 */
export function cliCommand(setting: string, extensionPath: string, nodePath: string): CliCommand {
  const configured = setting.trim();
  const node = { ELECTRON_RUN_AS_NODE: '1' };
  if (configured === '')
    return { command: nodePath, args: [join(extensionPath, BUNDLED_CLI)], env: node, source: 'bundled' };
  if (SCRIPT.test(configured)) return { command: nodePath, args: [configured], env: node, source: 'agentm.cli.path' };
  return { command: configured, args: [], env: {}, source: 'agentm.cli.path' };
}

/** Whether `command` is a path to check on disk (a bare name is looked up on PATH by the spawn). */
export function isPathCommand(command: string): boolean {
  return isAbsolute(command) || /[\\/]/.test(command);
}

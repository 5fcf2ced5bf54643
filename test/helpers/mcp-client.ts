import { afterEach } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AGENTM_BIN } from './cli.js';
import type { AgentmWorld } from './agentm-world.js';

const open: Client[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
});

export interface McpSession {
  readonly client: Client;
  /** What the server wrote on stderr so far. */
  stderr(): string;
  /** Calls a tool and returns its result (tool errors included, as `isError`). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

/** The text of a tool result's first content block. */
export function resultText(result: CallToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}

/** A tool result's JSON. */
export function resultJson<T = Record<string, unknown>>(result: CallToolResult): T {
  return JSON.parse(resultText(result)) as T;
}

/**
 * `agentm mcp` started by the SDK's own client over stdio, as Claude Code or any MCP client starts it:
 * the built CLI, the world's repo as its directory, a private HOME and cache. Closed after the test.
 */
export async function connectMcp(world: AgentmWorld, env: Record<string, string> = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: AGENTM_BIN,
    args: ['mcp'],
    cwd: world.repo,
    env: {
      HOME: world.home,
      XDG_CACHE_HOME: `${world.home}/.cache`,
      AGENTM_INSTALL_PREFIX: `${world.home}/.claude`,
      ...env,
    },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'vitest-agent', version: '1.0.0' });
  await client.connect(transport);
  open.push(client);
  return {
    client,
    stderr: () => stderr,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
  };
}

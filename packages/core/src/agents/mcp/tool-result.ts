import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { redactSecrets, secretValues } from '../../text/redact.js';
import type { McpContext } from './mcp-context.js';

/** A tool's answer as text (Markdown or JSON a model reads). */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/** A tool's answer as indented JSON. */
export function jsonResult(value: unknown): CallToolResult {
  return textResult(JSON.stringify(value, null, 2));
}

/**
 * A tool error (`isError: true`) carrying the message the CLI prints for the same failure (after its
 * `agentm: ` prefix): the error classes name the problem and the fix, so the model can act on it. Like
 * the CLI's stderr, it passes the secret redactor: a provider's error body may quote a key, and what a
 * tool returns lands in the agent's transcript.
 */
export function errorResult(error: unknown, secrets: readonly string[] = []): CallToolResult {
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text: redactSecrets(message, secrets) }], isError: true };
}

/**
 * Runs a tool's work and turns any error into a tool error, so a failure reaches the model as a result
 * it can read (never a protocol error, never a crash of the server).
 */
export async function guarded(ctx: McpContext, work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return errorResult(error, secretValues(ctx.ws.host.env, ctx.ws.config));
  }
}

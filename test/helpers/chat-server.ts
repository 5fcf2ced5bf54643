import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/** One scripted answer: an HTTP status and a body (an object is sent as JSON, a string as is), after an optional delay. */
export interface ScriptedReply {
  readonly status?: number;
  readonly body: unknown;
  readonly delayMs?: number;
}

export interface ChatServer {
  /** Base URL ending in /v1. */
  readonly baseUrl: string;
  /** Every request body received, parsed, with its headers. */
  readonly requests: Array<{ body: Record<string, unknown>; headers: IncomingMessage['headers']; path: string }>;
  close(): Promise<void>;
}

const open = new Set<Server>();

/** A chat completion answer with optional tool calls and usage. */
export function completion(
  content: string,
  toolCalls: Array<{ name: string; args: unknown; id?: string }> = [],
  totalTokens = 10,
): Record<string, unknown> {
  return {
    choices: [
      {
        finish_reason: toolCalls.length > 0 ? 'tool_calls' : 'stop',
        message: {
          role: 'assistant',
          content,
          ...(toolCalls.length > 0
            ? {
                tool_calls: toolCalls.map((c, i) => ({
                  id: c.id ?? `call_${i}`,
                  type: 'function',
                  function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) },
                })),
              }
            : {}),
        },
      },
    ],
    usage: { prompt_tokens: totalTokens - 2, completion_tokens: 2, total_tokens: totalTokens },
  };
}

/**
 * A real HTTP server on 127.0.0.1 that answers POST /v1/chat/completions from a script: `reply(n, body)`
 * gives the n-th answer (0-based). Closed after each test.
 */
export async function startChatServer(
  reply: (n: number, body: Record<string, unknown>) => ScriptedReply,
): Promise<ChatServer> {
  const requests: ChatServer['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
      const n = requests.length;
      requests.push({ body, headers: req.headers, path: req.url ?? '' });
      const r = reply(n, body);
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
        res.end(typeof r.body === 'string' ? r.body : JSON.stringify(r.body));
      };
      if (r.delayMs) setTimeout(send, r.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.add(server);
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => {
      open.delete(server);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

afterEach(async () => {
  for (const s of [...open]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
  open.clear();
});

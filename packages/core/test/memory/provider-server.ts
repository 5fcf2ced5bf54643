// A real OpenAI-compatible server on 127.0.0.1 for provider tests: deterministic embeddings (hashed
// bag of words, with a synonym table so that "automobile" lands where "car" does) and scripted chat
// answers, switchable into failure modes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tokenize } from '../../src/memory/indexing/tokenize.js';

export type Mode = 'ok' | 'http500' | 'timeout' | 'malformed' | 'badshape' | 'wrongdim';
export const DIM = 16;
const SYNONYMS: Record<string, string> = { automobile: 'car', vehicle: 'car', crash: 'failure' };
/** The synonym table over the index's terms (stems: "automobile" is indexed as "automobil"). */
const SYNONYM_TERMS = new Map(Object.entries(SYNONYMS).map(([word, to]) => [tokenize(word)[0]!, tokenize(to)[0]!]));

export function embedText(text: string, dim = DIM): number[] {
  const v = new Array<number>(dim).fill(0);
  for (const t of tokenize(text)) {
    const term = SYNONYM_TERMS.get(t) ?? t;
    let h = 2166136261;
    for (let i = 0; i < term.length; i++) h = Math.imul(h ^ term.charCodeAt(i), 16777619);
    v[(h >>> 0) % dim]! += 1;
  }
  return v;
}

export interface FakeProvider {
  readonly baseUrl: string;
  mode: Mode;
  /** What the chat endpoint answers (as the message content) in mode ok. */
  chatContent: string;
  readonly requests: {
    path: string;
    body: { model?: unknown; input?: unknown; messages?: { role: string; content: string }[] };
    auth: string | undefined;
  }[];
  close(): Promise<void>;
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const state = { mode: 'ok' as Mode, chatContent: '{"distilled": false}' };
  const requests: FakeProvider['requests'] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => void answer(req, res));
  async function answer(req: IncomingMessage, res: ServerResponse): Promise<unknown> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null');
    requests.push({ path: req.url ?? '', body, auth: req.headers['authorization'] });
    const send = (status: number, payload: string) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(payload);
    switch (state.mode) {
      case 'http500':
        return send(500, '{"error":"model crashed"}');
      case 'timeout':
        return; // never answers; the client's timeout must fire
      case 'malformed':
        return send(200, '{"data": [ {"embedding": [0.1, ');
      case 'badshape':
        return send(
          200,
          req.url?.endsWith('/chat/completions')
            ? '{"choices": [{"message": {"content": "I think nothing stable here."}}]}'
            : '{"result": []}',
        );
    }
    if (req.url === '/v1/embeddings') {
      const dim = state.mode === 'wrongdim' ? 4 : DIM;
      return send(
        200,
        JSON.stringify({
          data: (body.input as string[]).map((t, index) => ({ index, embedding: embedText(t, dim) })),
          model: body.model,
        }),
      );
    }
    if (req.url === '/v1/chat/completions')
      return send(200, JSON.stringify({ choices: [{ message: { role: 'assistant', content: state.chatContent } }] }));
    return send(404, '{"error":"no such route"}');
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get mode() {
      return state.mode;
    },
    set mode(m: Mode) {
      state.mode = m;
    },
    get chatContent() {
      return state.chatContent;
    },
    set chatContent(c: string) {
      state.chatContent = c;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

/**
 * Real HTTP servers on 127.0.0.1 that speak what AgentM's detection and embeddings ask of a local Ollama
 * (`GET /api/tags`, `POST /v1/embeddings`) or LM Studio (`GET /v1/models`, `POST /v1/embeddings`), with
 * deterministic vectors: one dimension per topic word a text mentions. Closed after each test.
 */
export interface LocalServer {
  /** Where it listens, e.g. http://127.0.0.1:40123 (what AGENTM_OLLAMA_URL / AGENTM_LMSTUDIO_URL take). */
  readonly url: string;
  /** Every request: method, path and, for a POST, the texts asked to embed. */
  readonly requests: Array<{ method: string; path: string; input?: string[] }>;
  /** When true, every request is accepted and never answered (a hung server). */
  hang: boolean;
  /** When true, /v1/embeddings answers 503. */
  down: boolean;
}

const open = new Set<Server>();
afterEach(async () => {
  await Promise.all(
    [...open].map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
  open.clear();
});

/** The topics of the deterministic vectors. */
const TOPICS = [/car|automobile|vehicle/i, /lock/i, /watcher/i, /library|dependenc/i];

export function topicVector(text: string): number[] {
  return TOPICS.map((re) => (re.test(text) ? 1 : 0));
}

export async function startLocalServer(kind: 'ollama' | 'lmstudio', models: readonly string[]): Promise<LocalServer> {
  const state: LocalServer = { url: '', requests: [], hang: false, down: false };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input?: string[] }) : {};
      state.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        ...(body.input ? { input: body.input } : {}),
      });
      if (state.hang) return;
      const send = (status: number, json: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (req.method === 'GET' && kind === 'ollama' && req.url === '/api/tags')
        return send(200, {
          models: models.map((name) => ({
            name,
            model: name,
            details: { family: /embed/.test(name) ? 'nomic-bert' : 'llama', families: null },
          })),
        });
      if (req.method === 'GET' && kind === 'lmstudio' && req.url === '/v1/models')
        return send(200, {
          object: 'list',
          data: models.map((id) => ({ id, object: 'model', owned_by: 'organization_owner' })),
        });
      if (req.method === 'POST' && req.url === '/v1/embeddings') {
        if (state.down) return send(503, { error: 'model not loaded' });
        return send(200, { data: (body.input ?? []).map((text, index) => ({ index, embedding: topicVector(text) })) });
      }
      send(404, { error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.add(server);
  (state as { url: string }).url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** The environment that points AgentM's detection at these servers (and nowhere else). */
export function detectionEnv(servers: { ollama?: LocalServer; lmstudio?: LocalServer }): NodeJS.ProcessEnv {
  return {
    AGENTM_DETECT_LOCAL: '1',
    // A port nothing listens on stands for "not running" (refused at once).
    AGENTM_OLLAMA_URL: servers.ollama?.url ?? 'http://127.0.0.1:9',
    AGENTM_LMSTUDIO_URL: servers.lmstudio?.url ?? 'http://127.0.0.1:9',
  };
}

/** Two notes for recall by meaning: only the vectors find "vehicle" (no note holds it, no synonym links it). */
export async function writeTopicNotes(memoryRoot: string): Promise<void> {
  await mkdir(join(memoryRoot, 'memory', 'reference'), { recursive: true });
  await mkdir(join(memoryRoot, 'memory', 'convention'), { recursive: true });
  await writeFile(
    join(memoryRoot, 'memory', 'reference', 'automobile.md'),
    '---\ntype: reference\nstatus: active\n---\n\n# Automobile\n\nThe automobile is parked outside.\n',
  );
  await writeFile(
    join(memoryRoot, 'memory', 'convention', 'lock.md'),
    '---\ntype: convention\nstatus: active\n---\n\n# Lock\n\nWait for the lock, then retry.\n',
  );
}

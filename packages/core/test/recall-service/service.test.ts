import { mkdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from '../../../../test/helpers/agentm-world.js';
import { IndexFreshness } from '../../src/agents/mcp/index-freshness.js';
import { recallServiceHost, type McpContext } from '../../src/agents/mcp/mcp-context.js';
import { serveRecallSocket, type RecallSocketServer } from '../../src/recall-service/server.js';
import {
  askRecallService,
  MAX_SERVICE_MESSAGE_BYTES,
  RECALL_SERVICE_PROTOCOL,
  recallServiceAddress,
  recallServiceDir,
  type RecallServiceKey,
} from '../../src/recall-service/client.js';
import { Workspace } from '../../src/workspace/workspace.js';

/** The version both ends run (a server of another version is another socket). */
const VERSION = '9.9.9-test';

const hostOf = (w: AgentmWorld) => ({ env: { HOME: w.home, XDG_CACHE_HOME: join(w.home, 'cache') }, home: w.home });

const open: RecallSocketServer[] = [];
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

async function served(options: { config?: Record<string, unknown> } = {}) {
  const w = await agentmWorld();
  await w.writeConfig({ ...vaultConfig(w), ...options.config });
  await mkdir(join(w.memoryRoot, 'memory', 'fix'), { recursive: true });
  await writeFile(
    join(w.memoryRoot, 'memory', 'fix', 'lock.md'),
    '---\ntype: fix\nstatus: active\n---\n\n# Lock retry\n\nBack off when the vault lock is held.\n',
  );
  const ws = await Workspace.open({ host: hostOf(w), projectRoot: w.repo });
  const ctx: McpContext = {
    ws,
    freshness: new IndexFreshness(ws.localRoot),
    actor: () => 'test',
    project: async () => (await ws.project())!,
  };
  const logged: string[] = [];
  const server = await serveRecallSocket(recallServiceHost(ctx, VERSION), (line) => logged.push(line));
  if (server) open.push(server);
  const key = ws.recallServiceKey(VERSION)!;
  const dir = recallServiceDir(hostOf(w).env, w.home);
  return { w, ws, server, logged, key, dir };
}

/** Sends raw bytes and returns the raw answer ('' when the server closed without one). */
function rawAsk(address: string, bytes: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(address);
    let out = '';
    socket.on('connect', () => socket.end(bytes));
    socket.on('data', (c: Buffer) => (out += c.toString('utf8')));
    socket.on('error', () => resolve(out));
    socket.on('close', () => resolve(out));
  });
}

describe('the recall socket of agentm mcp', () => {
  it('answers a client whose index it holds, with the ranking the client would compute', async () => {
    const { ws, server, key, dir } = await served();
    const request = { protocol: RECALL_SERVICE_PROTOCOL, key, query: { text: 'vault lock', noteHalfLife: 86_400_000 } };
    const answer = await askRecallService(dir, server!.address, request, 10_000);
    expect(answer?.servedBy).toBe(`agentm mcp, pid ${process.pid}`);
    expect(answer?.items.map((i) => i.title)).toEqual(['Lock retry']);
    const own = await ws.recall({ text: 'vault lock', noteHalfLife: 86_400_000 });
    expect(answer?.items.map((i) => [i.locator, i.similarity])).toEqual(
      own.items.map((i) => [i.locator, i.similarity]),
    );
  });

  it('refuses what it cannot answer as asked, and keeps serving', async () => {
    const { server, key } = await served();
    const refuse = async (body: unknown) => JSON.parse(await rawAsk(server!.address, `${JSON.stringify(body)}\n`));
    expect(await refuse({ protocol: RECALL_SERVICE_PROTOCOL, key: { ...key, maxNoteChars: 10 }, query: {} })).toEqual({
      ok: false,
      error: 'another index',
    });
    expect(await refuse({ protocol: 99, key, query: {} })).toMatchObject({ ok: false });
    expect(
      await refuse({ protocol: RECALL_SERVICE_PROTOCOL, key, query: { text: 'x', exec: 'rm -rf /' } }),
    ).toMatchObject({ ok: false, error: 'not a recall request of this version' });
    expect(JSON.parse(await rawAsk(server!.address, 'not json'))).toMatchObject({ ok: false });
    // An invalid query is the recall's own error, which the client then meets typed, in-process.
    expect(await refuse({ protocol: RECALL_SERVICE_PROTOCOL, key, query: { text: 'x', k: -1 } })).toMatchObject({
      ok: false,
    });
    expect(await rawAsk(server!.address, Buffer.alloc(MAX_SERVICE_MESSAGE_BYTES + 1, 0x20))).toBe('');
    const still = JSON.parse(
      await rawAsk(
        server!.address,
        `${JSON.stringify({ protocol: RECALL_SERVICE_PROTOCOL, key, query: { text: 'lock' } })}\n`,
      ),
    );
    expect(still.ok).toBe(true);
  });

  it('another AgentM version or config of the same store (a note limit) is another socket: that client recalls itself', async () => {
    const { w, key, dir } = await served();
    const other: RecallServiceKey = { ...key, maxNoteChars: 1000 };
    expect(recallServiceAddress(dir, other)).not.toBe(recallServiceAddress(dir, key));
    const client = await Workspace.open({
      host: hostOf(w),
      projectRoot: w.repo,
      index: { service: { version: VERSION } },
    });
    expect((await client.recall({ text: 'vault lock' })).servedBy).toBe(`agentm mcp, pid ${process.pid}`);
    const otherVersion = await Workspace.open({
      host: hostOf(w),
      projectRoot: w.repo,
      index: { service: { version: '9.9.8' } },
    });
    expect((await otherVersion.recall({ text: 'vault lock' })).servedBy).toBeUndefined();
    await w.writeConfig({ ...vaultConfig(w), 'memory.index.max_note_chars': 1000 });
    const limited = await Workspace.open({
      host: hostOf(w),
      projectRoot: w.repo,
      index: { service: { version: VERSION } },
    });
    const result = await limited.recall({ text: 'vault lock' });
    expect(result.servedBy).toBeUndefined();
    expect(result.items.map((i) => i.title)).toEqual(['Lock retry']);
  });

  it('gives no address where a Unix socket path would be too long', () => {
    const key = { protocol: 1, version: '0', root: '/r', indexDir: '/i', layout: {}, maxNoteChars: undefined };
    if (process.platform !== 'win32') expect(recallServiceAddress(`/${'d'.repeat(120)}`, key)).toBeUndefined();
    expect(recallServiceAddress('/short', key)).toMatch(/^\/short\/[0-9a-f]{24}\.sock$|pipe/);
  });
});

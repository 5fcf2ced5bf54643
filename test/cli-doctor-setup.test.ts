import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig } from './helpers/agentm-world.js';
import { completion, startChatServer } from './helpers/chat-server.js';
import { runAgentm } from './helpers/cli.js';

const servers = new Set<Server>();
afterEach(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
  servers.clear();
});

/** An OpenAI-compatible embeddings endpoint on 127.0.0.1: one vector per input. */
async function embeddingsServer(): Promise<string> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: body.input.map((_, index) => ({ index, embedding: [1, 0, 0] })) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.add(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** A port nobody listens on (taken, then released). */
async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}/v1`;
}

const rowsOf = (stdout: string) => JSON.parse(stdout) as Array<{ id: string; status: string; line: string }>;

describe('doctor checks everything a user configures (issue 15)', { timeout: 60_000 }, () => {
  it('providers: half a setting fails naming what to set; --providers asks each endpoint and reports its answer', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const half = await runAgentm(['doctor'], { home: w.home, env: { AGENTM_LLM_BASE_URL: 'http://127.0.0.1:9/v1' } });
    expect(half.code).toBe(1);
    expect(half.stdout).toMatch(/^providers \[FAIL\] AGENTM_LLM_BASE_URL is set but AGENTM_LLM_MODEL is not/m);

    const chat = await startChatServer(() => ({ body: completion('pong') }));
    const env = {
      AGENTM_LLM_BASE_URL: chat.baseUrl,
      AGENTM_LLM_MODEL: 'small',
      AGENTM_EMBED_BASE_URL: await embeddingsServer(),
      AGENTM_EMBED_MODEL: 'vec',
    };
    const offline = await runAgentm(['doctor'], { home: w.home, env });
    expect(offline.stdout).toContain(
      `provider chat [OK] openai-compatible ${chat.baseUrl} model=small (not contacted; agentm doctor --providers asks it)`,
    );
    expect(chat.requests).toHaveLength(0);
    const live = await runAgentm(['doctor', '--providers'], { home: w.home, env });
    expect(live.code, live.stdout).toBe(0);
    expect(live.stdout).toMatch(
      new RegExp(`^provider chat \\[OK\\] openai-compatible ${chat.baseUrl} model=small answered in \\d`, 'm'),
    );
    expect(live.stdout).toMatch(/^provider embeddings \[OK\] vec@http:\/\/127\.0\.0\.1:\d+\/v1\S* answered in \d/m);
    expect(chat.requests[0]!.body).toMatchObject({ model: 'small', max_tokens: 1 });

    const dead = await runAgentm(['doctor', '--providers', '--json'], {
      home: w.home,
      env: { AGENTM_LLM_BASE_URL: await deadUrl(), AGENTM_LLM_MODEL: 'small' },
    });
    expect(dead.code).toBe(1);
    const row = rowsOf(dead.stdout).find((r) => r.id === 'provider chat')!;
    expect(row.status).toBe('fail');
    expect(row.line).toMatch(/^provider chat \[FAIL\] openai-compatible http:\/\/127\.0\.0\.1:\d+\/v1 model=small: .+/);
  });

  it('the project binding of the cwd: bound (and where its plans live), or a repository without one is told how', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    const bound = await runAgentm(['doctor'], { home: w.home, cwd: w.repo });
    expect(bound.stdout).toContain(
      `project [OK] ${w.repo} is project 'proj' (from .harness/project.json vault_project); plans in ${join(w.memoryRoot, 'desk', 'projects', 'proj', '_harness')}`,
    );
    const unbound = join(w.home, 'loose');
    await mkdir(join(unbound, '.git'), { recursive: true });
    const loose = await runAgentm(['doctor'], { home: w.home, cwd: unbound });
    expect(loose.code).toBe(0); // a warning, not a failure
    expect(loose.stdout).toContain(`project [WARN] ${unbound} is not bound to a project`);
    expect(loose.stdout).toContain('Bind it with: agentm init --project <slug>');
  });

  it('the index: not built yet, then built with its counts', async () => {
    const w = await agentmWorld();
    await w.writeConfig(vaultConfig(w));
    await writeFile(join(w.memoryRoot, 'memory', 'convention', 'a.md'), '---\ntype: convention\n---\n\nUse pnpm.\n');
    const before = await runAgentm(['doctor'], { home: w.home });
    expect(before.stdout).toMatch(
      /^index \[HINT\] not built yet \(.*\) — the first recall builds it, or agentm reindex$/m,
    );
    expect((await runAgentm(['reindex'], { home: w.home })).code).toBe(0);
    const after = await runAgentm(['doctor'], { home: w.home });
    expect(after.stdout).toMatch(/^index \[OK\] 1 document\(s\) from 1 file\(s\) \(/m);
  });
});

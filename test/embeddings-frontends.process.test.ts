import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';
import { startLocalServer, writeTopicNotes, type LocalServer } from './helpers/local-servers.js';
import { until } from './helpers/processes.js';
import { connectMcp, resultJson } from './helpers/mcp-client.js';

/**
 * Semantic recall through a real embeddings endpoint on 127.0.0.1 (deterministic vectors: one dimension
 * per topic word), from the command line and from agentm mcp (through the MCP SDK's client): the vectors
 * computed in the background, only what changed embedded again, a failing endpoint recalled lexically
 * with one warning, not one per query or process. (VS Code and Obsidian: their own suites.)
 */

async function world(server: LocalServer): Promise<AgentmWorld> {
  const w = await agentmWorld();
  await w.writeConfig({
    ...vaultConfig(w),
    'providers.embeddings.base_url': `${server.url}/v1`,
    'providers.embeddings.model': 'nomic-embed-text',
  });
  await writeTopicNotes(w.memoryRoot);
  return w;
}

const texts = (server: LocalServer) =>
  server.requests.filter((r) => r.path === '/v1/embeddings').flatMap((r) => r.input ?? []);

describe('semantic recall through a local embeddings endpoint', { timeout: 120_000 }, () => {
  it('the CLI: reindex embeds, recall finds by meaning, a new note alone is embedded, a failing endpoint warns once', async () => {
    const server = await startLocalServer('ollama', ['nomic-embed-text']);
    const w = await world(server);
    const reindex = await runAgentm(['reindex'], { home: w.home, cwd: w.repo });
    expect(reindex.code, reindex.stderr).toBe(0);
    expect(reindex.stdout).toContain('embeddings: 2 note(s) embedded');
    const recall = (text: string) =>
      runAgentm(['recall', text, '--json', '--all-projects'], { home: w.home, cwd: w.repo });
    // `vehicle`: no note holds it, and the thesaurus does not make it a synonym of automobile (it does
    // car), so only meaning finds the note.
    const byMeaning = await recall('vehicle');
    expect(byMeaning.code, byMeaning.stderr).toBe(0);
    expect(JSON.parse(byMeaning.stdout)).toMatchObject({
      mode: 'hybrid',
      items: [{ id: 'memory/reference/automobile.md' }],
    });

    // A note saved now: its vector is computed in the background, and nothing else is embedded again.
    const before = texts(server).length;
    const saved = await runAgentm(['save', 'fix', 'vehicle-service', '--group', 'memory', '--body-file', '-'], {
      home: w.home,
      stdin: 'Service the vehicle every spring.\n',
    });
    expect(saved.code, saved.stderr).toBe(0);
    expect((await recall('spring')).code).toBe(0); // answers at once, starts the background run
    await until(
      () =>
        texts(server)
          .slice(before)
          .some((t) => t.includes('Service the vehicle')),
      'the new note embedded',
    );
    const documents = texts(server)
      .slice(before)
      .filter((t) => !['spring', 'vehicle'].includes(t));
    expect(documents).toEqual([expect.stringContaining('Service the vehicle every spring')]);

    server.down = true;
    const first = await recall('automobile');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      mode: 'lexical',
      items: [{ id: 'memory/reference/automobile.md' }],
    });
    expect(first.stderr.match(/agentm: warning: .*503.*recalled lexically/g)).toHaveLength(1);
    for (const text of ['automobile', 'lock']) {
      const again = await recall(text);
      expect([again.code, again.stderr]).toEqual([0, '']);
    }
  });

  it('agentm mcp: embeds in the background while it serves, finds by meaning, and warns once when the endpoint fails', async () => {
    const server = await startLocalServer('lmstudio', ['text-embedding-nomic-embed-text-v1.5']);
    const w = await world(server);
    const mcp = await connectMcp(w);
    type Answer = { mode: string; warnings: string[]; items: Array<{ path: string }> };
    const ask = async (query: string) => resultJson<Answer>(await mcp.call('recall', { query, all_projects: true }));
    // The first answers may be lexical: the vectors are computed while the server waits for questions.
    // (`vehicle`: a word no note holds and the thesaurus does not link to automobile.)
    await until(
      async () => (await ask('vehicle')).items[0]?.path === 'memory/reference/automobile.md',
      'a hybrid answer',
    );
    expect((await ask('vehicle')).mode).toBe('hybrid');
    server.down = true;
    const failing = await ask('automobile');
    expect(failing).toMatchObject({ mode: 'lexical', items: [{ path: 'memory/reference/automobile.md' }] });
    expect(failing.warnings).toEqual([expect.stringMatching(/503.*recalled lexically/)]);
    expect((await ask('automobile')).warnings).toEqual([]);
    expect((await ask('lock')).warnings).toEqual([]);
  });
});

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { agentmWorld, vaultConfig, type AgentmWorld } from './helpers/agentm-world.js';
import { runAgentm } from './helpers/cli.js';
import { detectionEnv, startLocalServer, writeTopicNotes, type LocalServer } from './helpers/local-servers.js';
import { until } from './helpers/processes.js';
import { spawnAgentmInPty, stripAnsi } from './helpers/pty.js';

/** `agentm init` and `agentm doctor` offer a local Ollama's or LM Studio's embedding model (issue 19 §3). */

async function world(): Promise<AgentmWorld> {
  const w = await agentmWorld();
  await w.writeConfig(vaultConfig(w));
  await writeTopicNotes(w.memoryRoot);
  return w;
}

const config = async (w: AgentmWorld) => JSON.parse(await readFile(w.configFile, 'utf8')) as Record<string, unknown>;
const embeddingsRow = (stdout: string) => stdout.split('\n').find((l) => l.startsWith('provider embeddings')) ?? '';

const embedded = (server: LocalServer) => server.requests.filter((r) => r.path === '/v1/embeddings');

describe('local embeddings: detection, consent, and recall by meaning', { timeout: 120_000 }, () => {
  it('doctor offers the embedding model of a local Ollama, and says how to pull one when it has none', async () => {
    const w = await world();
    const ollama = await startLocalServer('ollama', ['llama3.1:latest', 'nomic-embed-text:latest']);
    const found = await runAgentm(['doctor'], { home: w.home, cwd: w.repo, env: detectionEnv({ ollama }) });
    expect(embeddingsRow(found.stdout)).toBe(
      `provider embeddings [HINT] none configured (recall is lexical); Ollama at ${ollama.url} has nomic-embed-text — ` +
        `agentm init --embed-local (or agentm config set providers.embeddings.base_url ${ollama.url}/v1 and providers.embeddings.model nomic-embed-text)`,
    );
    const bare = await startLocalServer('ollama', ['llama3.1:latest']);
    const none = await runAgentm(['doctor'], { home: w.home, cwd: w.repo, env: detectionEnv({ ollama: bare }) });
    expect(embeddingsRow(none.stdout)).toBe(
      `provider embeddings [HINT] none configured (recall is lexical); Ollama runs at ${bare.url} without an embedding model — ` +
        'ollama pull nomic-embed-text, then agentm init --embed-local',
    );
    // Skippable: nothing is asked.
    const skipped = await runAgentm(['doctor', '--no-detect'], {
      home: w.home,
      cwd: w.repo,
      env: detectionEnv({ ollama }),
    });
    expect(embeddingsRow(skipped.stdout)).toContain(
      '[HINT] none configured (recall is lexical) — set AGENTM_EMBED_BASE_URL',
    );
    expect(ollama.requests).toHaveLength(1);
  });

  it('doctor finds LM Studio too, and a server that never answers does not hold it up', async () => {
    const w = await world();
    const lmstudio = await startLocalServer('lmstudio', [
      'qwen2.5-7b-instruct',
      'text-embedding-nomic-embed-text-v1.5',
    ]);
    const hung = await startLocalServer('ollama', ['nomic-embed-text']);
    hung.hang = true;
    const r = await runAgentm(['doctor'], { home: w.home, cwd: w.repo, env: detectionEnv({ ollama: hung, lmstudio }) });
    expect(r.code, r.stderr).toBe(0);
    expect(embeddingsRow(r.stdout)).toContain(
      `LM Studio at ${lmstudio.url} has text-embedding-nomic-embed-text-v1.5 — agentm init --embed-local`,
    );
  });

  it('init --yes configures nothing it was not asked to, and hints at --embed-local', async () => {
    const w = await world();
    const ollama = await startLocalServer('ollama', ['nomic-embed-text:latest']);
    const r = await runAgentm(['init', '--yes', '--project', 'proj'], {
      home: w.home,
      cwd: w.repo,
      env: detectionEnv({ ollama }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`found Ollama at ${ollama.url} with nomic-embed-text: add --embed-local to use it`);
    expect(await config(w)).not.toHaveProperty('providers.embeddings.base_url');
    expect(embedded(ollama)).toEqual([]);
  });

  it('init --yes --embed-local configures it, embeds the notes in the background, and recall finds by meaning', async () => {
    const w = await world();
    const ollama = await startLocalServer('ollama', ['llama3.1:latest', 'nomic-embed-text:latest']);
    const env = detectionEnv({ ollama });
    const r = await runAgentm(['init', '--yes', '--embed-local'], { home: w.home, cwd: w.repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(await config(w)).toMatchObject({
      'providers.embeddings.base_url': `${ollama.url}/v1`,
      'providers.embeddings.model': 'nomic-embed-text',
    });
    expect(r.stderr).toContain('the notes are being embedded in the background');
    // The background refresh embeds both notes (only the notes: nothing else asks before the first recall).
    await until(
      () =>
        embedded(ollama)
          .flatMap((q) => q.input ?? [])
          .filter((t) => /Automobile|Lock/.test(t)).length >= 2,
      'the background refresh to embed the notes',
    );
    await until(async () => {
      const recall = await runAgentm(['recall', 'car', '--json', '--all-projects'], { home: w.home, cwd: w.repo, env });
      return recall.code === 0 && recall.stdout.includes('memory/reference/automobile.md');
    }, 'a recall by meaning: no note holds the word "car"');
  });

  it('init --embed-local with nothing to use is a usage error naming the fix; nothing is written', async () => {
    const w = await world();
    const before = await readFile(w.configFile, 'utf8');
    const none = await runAgentm(['init', '--yes', '--embed-local'], {
      home: w.home,
      cwd: w.repo,
      env: detectionEnv({}),
    });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no Ollama (127.0.0.1:11434) or LM Studio (127.0.0.1:1234) answered');
    const bare = await startLocalServer('ollama', ['llama3.1:latest']);
    const pull = await runAgentm(['init', '--yes', '--embed-local'], {
      home: w.home,
      cwd: w.repo,
      env: detectionEnv({ ollama: bare }),
    });
    expect(pull.code).toBe(2);
    expect(pull.stderr).toContain(
      `Ollama runs at ${bare.url} but has no embedding model: ollama pull nomic-embed-text`,
    );
    expect(await readFile(w.configFile, 'utf8')).toBe(before);
  });

  it('on a terminal, init offers the local model and writes it only when the person says yes', async () => {
    for (const answer of ['n', 'y'] as const) {
      const w = await world();
      const ollama = await startLocalServer('ollama', ['nomic-embed-text:latest']);
      const session = spawnAgentmInPty(['init'], { home: w.home, cwd: w.repo, env: detectionEnv({ ollama }) });
      for (const [prompt, typed] of [
        [/Obsidian vault folder/, '\r'],
        [/agent's folder inside the vault/, '\r'],
        [/Project name for this repository/, '\r'],
        [/Configure a chat endpoint/, 'n'],
      ] as const) {
        await session.waitFor(prompt);
        session.type(typed);
      }
      await session.waitFor(/has nomic-embed-text: use it for semantic recall\?/);
      expect(stripAnsi(session.output())).toContain(`Ollama at ${ollama.url} has nomic-embed-text`);
      session.type(answer);
      if (answer === 'n') {
        await session.waitFor(/Configure a embeddings endpoint/);
        session.type('n');
      }
      await session.waitFor(/Write it\?/);
      session.type('y');
      const done = await session.exited;
      expect(done.code, done.stdout).toBe(0);
      const written = await config(w);
      if (answer === 'y') expect(written['providers.embeddings.model']).toBe('nomic-embed-text');
      else expect(written).not.toHaveProperty('providers.embeddings.model');
      expect(existsSync(w.configFile)).toBe(true);
    }
  });
});

import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { DeviceLocalBackend } from '../../src/backends/device-local.js';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { Locator } from '../../src/seam/locator.js';
import { consolidate } from '../../src/memory/consolidation/consolidate.js';
import { watermarkLocatorFor } from '../../src/memory/consolidation/episodes-source.js';
import { MemoryIndex } from '../../src/memory/indexing/memory-index.js';
import { recall } from '../../src/memory/recall/recall.js';
import { chatJson } from '../../src/providers/chat-json.js';
import {
  EmbeddingDimensionError,
  ProviderHttpError,
  ProviderMalformedError,
  ProviderTimeoutError,
  ProviderUnreachableError,
} from '../../src/providers/errors.js';
import { OpenAICompatibleChat } from '../../src/providers/openai-chat.js';
import { OpenAIEmbeddings } from '../../src/providers/openai-embeddings.js';
import { ProviderConfigError, resolveProviderSettings } from '../../src/providers/settings.js';
import { MapBeliefStore, note, testToDocument } from '../memory/helpers.js';
import { DIM, startFakeProvider, type FakeProvider, type Mode } from '../memory/provider-server.js';

let server: FakeProvider;
beforeEach(async () => {
  server = await startFakeProvider();
});
afterEach(async () => {
  await server.close();
});

// Generous timeouts for answers (a loaded CI machine is slow), a short one where the server never answers.
const timeoutFor = (mode: Mode) => (mode === 'timeout' ? 800 : 15_000);
const embeddings = (over: { timeoutMs?: number; dimensions?: number } = {}) =>
  new OpenAIEmbeddings({
    baseUrl: server.baseUrl,
    model: 'test-embed',
    apiKey: 'sk-test',
    timeoutMs: timeoutFor(server.mode),
    ...over,
  });
const chat = () =>
  new OpenAICompatibleChat({ baseUrl: server.baseUrl, model: 'test-chat', timeoutMs: timeoutFor(server.mode) });
const providerSettingsFromEnv = (env: NodeJS.ProcessEnv) => {
  const { embeddings, chat } = resolveProviderSettings({ env });
  return { embeddings, chat };
};

describe('OpenAI-compatible embeddings client', () => {
  it('posts the model and inputs with the bearer key and returns one vector per text', async () => {
    const vectors = await embeddings().embed(['a car', 'an automobile']);
    expect(vectors.map((v) => v.length)).toEqual([DIM, DIM]);
    expect([...vectors[0]!]).toEqual([...vectors[1]!]);
    expect(server.requests[0]).toMatchObject({
      path: '/v1/embeddings',
      body: { model: 'test-embed', input: ['a car', 'an automobile'] },
      auth: 'Bearer sk-test',
    });
  });

  it.each([
    ['http500', ProviderHttpError, /HTTP 500/],
    ['timeout', ProviderTimeoutError, /did not answer within 800 ms/],
    ['malformed', ProviderMalformedError, /not JSON/],
    ['badshape', ProviderMalformedError, /no `data` array/],
  ] as const)('throws a typed error when the server is %s', async (mode, type, message) => {
    server.mode = mode;
    const error = await embeddings()
      .embed(['x'])
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(type);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('sk-test');
  });

  it('refuses vectors of the wrong dimension, and an unreachable server', async () => {
    server.mode = 'wrongdim';
    await expect(embeddings({ dimensions: DIM }).embed(['x'])).rejects.toBeInstanceOf(EmbeddingDimensionError);
    await expect(
      new OpenAIEmbeddings({ baseUrl: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 2000 }).embed(['x']),
    ).rejects.toBeInstanceOf(ProviderUnreachableError);
  });
});

describe('OpenAI-compatible chat provider, through chatJson', () => {
  it('returns the JSON of the first choice, fenced or not', async () => {
    server.chatContent = '{"distilled": true, "statement": "x"}';
    expect(await chatJson(chat(), [{ role: 'user', content: 'hi' }])).toEqual({ distilled: true, statement: 'x' });
    server.chatContent = '```json\n{"distilled": false}\n```';
    expect(await chatJson(chat(), [{ role: 'user', content: 'hi' }])).toEqual({ distilled: false });
    expect(server.requests[0]!.body).toMatchObject({
      model: 'test-chat',
      temperature: 0,
      response_format: { type: 'json_object' },
    });
  });

  it('calls prose instead of JSON malformed', async () => {
    server.chatContent = 'Sure! Here is the belief: tests use vitest.';
    await expect(chatJson(chat(), [{ role: 'user', content: 'hi' }])).rejects.toBeInstanceOf(ProviderMalformedError);
  });
});

describe('provider settings from the environment', () => {
  it('is absent when nothing is set, and refuses half a configuration', () => {
    expect(providerSettingsFromEnv({})).toEqual({ embeddings: undefined, chat: undefined });
    expect(
      providerSettingsFromEnv({
        AGENTM_EMBED_BASE_URL: 'http://127.0.0.1:1/v1',
        AGENTM_EMBED_MODEL: 'm',
        AGENTM_EMBED_API_KEY: 'k',
      }).embeddings,
    ).toEqual({ baseUrl: 'http://127.0.0.1:1/v1', model: 'm', apiKey: 'k' });
    expect(() => providerSettingsFromEnv({ AGENTM_EMBED_BASE_URL: 'http://x/v1' })).toThrow(ProviderConfigError);
    expect(() => providerSettingsFromEnv({ AGENTM_CHAT_MODEL: 'm' })).toThrow(
      /AGENTM_CHAT_MODEL is set but AGENTM_LLM_BASE_URL is not \(nor config key providers\.chat\.base_url\)/,
    );
    expect(() => providerSettingsFromEnv({ AGENTM_CHAT_MODEL: 'm', AGENTM_CHAT_BASE_URL: 'ftp://x' })).toThrow(
      /http\(s\) URL/,
    );
  });
});

async function vault() {
  const dir = await tempDir();
  const root = join(dir, 'vault');
  const files: Record<string, string> = {
    'memory/reference/car.md': note('My car needs new tyres before winter.'),
    'memory/reference/lock.md': note('The vault lock times out after ten seconds.'),
  };
  for (const [key, text] of Object.entries(files)) {
    await mkdir(join(root, key, '..'), { recursive: true });
    await writeFile(join(root, key), text);
  }
  return { dir, root };
}

describe('hybrid recall', () => {
  const open = (v: { dir: string; root: string }, embedder = embeddings(), now?: () => number) =>
    MemoryIndex.open({
      backend: new DeviceLocalBackend({ root: v.root, lockRoot: join(v.dir, 'locks') }),
      toDocument: testToDocument,
      indexRoot: join(v.dir, 'cache'),
      lockRoot: join(v.dir, 'locks'),
      embedder,
      ...(now ? { now } : {}),
    });
  const embeddedTexts = () =>
    server.requests.filter((r) => r.path === '/v1/embeddings').flatMap((r) => r.body.input as string[]);

  it('embeds in a run of its own (not at refresh), again only what changed, and finds by meaning what words miss', async () => {
    const v = await vault();
    const index = await open(v);
    expect((await index.refresh()).warnings).toEqual([]);
    expect(index.vectors!.vectors.size).toBe(0); // a refresh makes no network request
    expect(embeddedTexts()).toEqual([]);
    expect(index.embeddings!.behind()).toBe(true);
    const run = await index.embeddings!.run();
    expect(run).toMatchObject({ embedded: 2, pending: 0, warnings: [] });
    expect(index.embeddings!.behind()).toBe(false);
    // Words alone miss it once the thesaurus (which lists automobile/car) is off.
    const lexical = await recall({ state: index.state }, { text: 'automobile', ranking: { synonym: 0 } });
    expect(lexical.items).toEqual([]);
    const hybrid = await recall(index, { text: 'automobile' });
    expect(hybrid.mode).toBe('hybrid');
    expect(hybrid.items[0]!.id).toBe('memory/reference/car.md');
    // Cached beside the index: another process finds the vectors and embeds nothing again.
    const again = await open(v);
    expect(again.vectors!.vectors.size).toBe(2);
    await writeFile(join(v.root, 'memory/reference/car.md'), note('My car needs winter tyres and a service.'));
    await again.refresh();
    const before = embeddedTexts().length;
    expect(await again.embeddings!.run()).toMatchObject({ embedded: 1, pending: 0 });
    expect(embeddedTexts().slice(before)).toEqual([expect.stringContaining('winter tyres and a service')]);
  });

  it.each(['http500', 'timeout', 'malformed', 'wrongdim'] as const)(
    'degrades to lexical recall with one warning, not one per query or process, when the provider is %s',
    async (mode) => {
      const v = await vault();
      const index = await open(v, embeddings({ timeoutMs: timeoutFor(mode) }));
      await index.refresh();
      await index.embeddings!.run();
      server.mode = mode;
      const result = await recall(index, { text: 'vault lock' });
      expect(result.mode).toBe('lexical');
      expect(result.items.map((i) => i.id)).toEqual(['memory/reference/lock.md']);
      expect(result.warnings).toHaveLength(1);
      expect(result.warnings[0]).toMatch(/recalled lexically/);
      if (mode === 'wrongdim') return; // an answer of another length is not a failure of the endpoint
      const asked = server.requests.length;
      const again = await recall(await open(v, embeddings({ timeoutMs: timeoutFor(mode) })), { text: 'vault lock' });
      expect([again.mode, again.warnings]).toEqual(['lexical', []]);
      expect(server.requests.length).toBe(asked); // resting: not asked again until the retry is due
    },
  );

  it('a background run against a failing endpoint leaves the notes lexical, tells the next answer once, and embeds them once it is back', async () => {
    const v = await vault();
    let clock = Date.now();
    server.mode = 'timeout';
    const index = await open(v, embeddings({ timeoutMs: 800 }), () => clock);
    expect((await index.refresh()).documents).toBe(2);
    const failed = await index.embeddings!.run({ background: true });
    expect(failed).toMatchObject({ embedded: 0, pending: 2, warnings: [] }); // nobody reads a background run
    expect((await recall({ state: index.state }, { text: 'tyres' })).items).toHaveLength(1);
    const told = await index.embeddings!.embedder.unannounced();
    expect(told).toMatch(/did not answer.*recall is lexical until it answers again/);
    expect(await index.embeddings!.embedder.unannounced()).toBeUndefined();
    server.mode = 'ok';
    expect(await index.embeddings!.run()).toMatchObject({ embedded: 0, pending: 2 }); // resting until its retry
    clock += 61_000;
    expect(await index.embeddings!.run()).toMatchObject({ embedded: 2, pending: 0, warnings: [] });
    expect((await open(v)).vectors!.vectors.size).toBe(2);
  });

  it('makes no network request at all without a provider', async () => {
    const v = await vault();
    const index = await MemoryIndex.open({
      backend: new DeviceLocalBackend({ root: v.root }),
      toDocument: testToDocument,
      indexRoot: join(v.dir, 'cache'),
      lockRoot: join(v.dir, 'locks'),
    });
    await index.refresh();
    expect((await recall(index, { text: 'vault lock' })).mode).toBe('lexical');
    expect(server.requests).toEqual([]);
  });
});

describe('consolidation with a chat distiller', () => {
  const progress = [
    '- 2026-01-05T10:00:00Z ran the tests: vitest is slow on the lock suite',
    '- 2026-01-05T10:05:00Z ran the tests: vitest is slow on the lock suite again',
  ].join('\n');
  async function run(mode: Mode, content?: string) {
    const backend = new MemoryBackend();
    await backend.write(new Locator('desk/projects/agentm/_harness/progress.md'), `${progress}\n`);
    const beliefs = new MapBeliefStore();
    server.mode = mode;
    if (content) server.chatContent = content;
    const report = await consolidate({
      backend,
      project: 'agentm',
      beliefs,
      watermark: watermarkLocatorFor('agentm'),
      chat: chat(),
      now: Date.UTC(2026, 0, 6),
    });
    return { backend, beliefs, report };
  }

  it('writes the belief the model distils, with its kind and confidence', async () => {
    const { beliefs, report } = await run(
      'ok',
      '{"distilled": true, "kind": "convention", "statement": "The lock suite is slow under vitest.", "confidence": 0.8}',
    );
    expect(report.warnings).toEqual([]);
    expect([...beliefs.beliefs.values()]).toEqual([
      expect.objectContaining({
        kind: 'convention',
        statement: 'The lock suite is slow under vitest.',
        confidence: 0.8,
      }),
    ]);
    expect(server.requests[0]!.body.messages![0]!.content).toMatch(/Prefer to answer that nothing stable is here/);
  });

  it('writes nothing when the model says nothing stable is here, and still advances the watermark', async () => {
    const { backend, beliefs, report } = await run('ok', '{"distilled": false}');
    expect(beliefs.beliefs.size).toBe(0);
    expect(report.watermark.toMs).toBe(Date.UTC(2026, 0, 5, 10, 5));
    expect(await backend.exists(watermarkLocatorFor('agentm'))).toBe(true);
  });

  it.each(['http500', 'timeout', 'malformed', 'badshape'] as const)(
    'falls back to the extractive distiller when the model is %s, losing nothing',
    async (mode) => {
      const { backend, beliefs, report } = await run(mode);
      expect(report.warnings).toHaveLength(1);
      expect(report.warnings[0]).toMatch(/distilled extractively instead/);
      expect([...beliefs.beliefs.values()]).toEqual([
        expect.objectContaining({
          statement: 'ran the tests: vitest is slow on the lock suite',
          confidence: 0.5,
          derivedFrom: expect.any(Array),
        }),
      ]);
      expect([...beliefs.beliefs.values()][0]!.derivedFrom).toHaveLength(2);
      expect(JSON.parse(await backend.read(watermarkLocatorFor('agentm')))).toMatchObject({ episodes_seen: 2 });
    },
  );
});

describe('chatJson bounds a completion', () => {
  it('rejects with ProviderTimeoutError when the model does not answer in time, though the provider has no bound of its own', async () => {
    server.mode = 'timeout';
    const unbounded = new OpenAICompatibleChat({ baseUrl: server.baseUrl, model: 'test-chat' });
    const error = await chatJson(unbounded, [{ role: 'user', content: 'hi' }], { timeoutMs: 300 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderTimeoutError);
    expect((error as Error).message).toMatch(/did not answer within 300 ms/);
  });
});

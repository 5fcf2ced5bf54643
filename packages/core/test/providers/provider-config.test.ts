import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { completion, startChatServer } from '../../../../test/helpers/chat-server.js';
import { tempDir } from '../../../../test/helpers/temp.js';
import { planGoal } from '../../src/harness/planner/planner.js';
import { chatJson } from '../../src/providers/chat-json.js';
import { CorruptConfigError } from '../../src/config/errors.js';
import { OpenAICompatibleChat } from '../../src/providers/openai-chat.js';
import { ProviderConfigError, providersFrom, resolveProviderSettings } from '../../src/providers/settings.js';
import { type HostEnv } from '../../src/index.js';
import { loadProviderSettings } from '../../src/providers/settings.js';

const CONFIG = {
  'providers.chat.base_url': 'http://127.0.0.1:11434/v1',
  'providers.chat.model': 'llama3',
  'providers.embeddings.base_url': 'http://127.0.0.1:11434/v1',
  'providers.embeddings.model': 'nomic-embed-text',
};

async function host(config?: unknown, env: Record<string, string> = {}): Promise<HostEnv> {
  const home = await tempDir();
  const prefix = join(home, 'prefix');
  if (config !== undefined) {
    await mkdir(prefix, { recursive: true });
    await writeFile(join(prefix, '.agentm-config.json'), typeof config === 'string' ? config : JSON.stringify(config));
  }
  return { home, env: { AGENTM_INSTALL_PREFIX: prefix, ...env } };
}

describe('one provider configuration: config keys, the environment over them', () => {
  it('reads providers.chat.* and providers.embeddings.* from the config', () => {
    expect(
      resolveProviderSettings({
        env: {},
        config: { ...CONFIG, 'providers.chat.api_key': 'sk-cfg', 'providers.chat.timeout_ms': 90_000 },
      }),
    ).toEqual({
      chat: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3', apiKey: 'sk-cfg', timeoutMs: 90_000 },
      embeddings: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text' },
      warnings: [],
    });
  });

  it('lets each environment variable override its key (env > config), AGENTM_LLM_* for chat and AGENTM_EMBED_* for embeddings', () => {
    const env = {
      AGENTM_LLM_MODEL: 'qwen',
      AGENTM_LLM_API_KEY: 'sk-env',
      AGENTM_EMBED_BASE_URL: 'http://10.0.0.1:8080',
    };
    const s = resolveProviderSettings({ env, config: { ...CONFIG, 'providers.chat.api_key': 'sk-cfg' } });
    expect(s.chat).toEqual({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen', apiKey: 'sk-env' });
    expect(s.embeddings).toEqual({ baseUrl: 'http://10.0.0.1:8080', model: 'nomic-embed-text' });
  });

  it('still reads the deprecated AGENTM_CHAT_* after AGENTM_LLM_*, with a warning', () => {
    const s = resolveProviderSettings({
      env: { AGENTM_CHAT_BASE_URL: 'http://h:1/v1', AGENTM_CHAT_MODEL: 'old', AGENTM_LLM_MODEL: 'new' },
      config: {},
    });
    expect(s.chat).toEqual({ baseUrl: 'http://h:1/v1', model: 'new' });
    expect(s.warnings).toEqual([
      'AGENTM_CHAT_BASE_URL is deprecated: use AGENTM_LLM_BASE_URL (one chat provider serves memory and the harness)',
    ]);
  });

  it('is absent without a base URL and a model: no provider, no network', () => {
    expect(resolveProviderSettings({ env: {}, config: {} })).toEqual({
      chat: undefined,
      embeddings: undefined,
      warnings: [],
    });
    expect(providersFrom({})).toEqual({});
    expect(resolveProviderSettings({ env: { AGENTM_LLM_API_KEY: 'sk' }, config: {} }).chat).toBeUndefined();
  });

  it('refuses half a configuration with an error naming the variable and the key to set', () => {
    const half = (env: Record<string, string>, config: Record<string, unknown>) => () =>
      resolveProviderSettings({ env, config });
    expect(half({}, { 'providers.chat.model': 'llama3' })).toThrow(
      "config key providers.chat.model is set but AGENTM_LLM_BASE_URL is not (nor config key providers.chat.base_url): set it to the endpoint's base URL (e.g. http://127.0.0.1:11434/v1), or unset the model",
    );
    expect(half({ AGENTM_EMBED_BASE_URL: 'http://h:1' }, {})).toThrow(
      'AGENTM_EMBED_BASE_URL is set but AGENTM_EMBED_MODEL is not (nor config key providers.embeddings.model)',
    );
    expect(half({}, { 'providers.chat.base_url': 'localhost:11434', 'providers.chat.model': 'm' })).toThrow(
      /config key providers\.chat\.base_url must be an http\(s\) URL/,
    );
    expect(half({}, { 'providers.chat.model': 7 })).toThrow('config key providers.chat.model must be a string, got 7');
    expect(half({}, { ...CONFIG, 'providers.chat.timeout_ms': -1 })).toThrow(
      /providers\.chat\.timeout_ms must be a positive number/,
    );
    expect(half({}, { 'providers.chat.model': 'x' })).toThrow(ProviderConfigError);
  });

  it('loads the config file of the host; a corrupt file is loud; half a configuration is a ProviderConfigError', async () => {
    expect((await loadProviderSettings(await host(CONFIG, { AGENTM_LLM_MODEL: 'env-model' }))).chat).toMatchObject({
      model: 'env-model',
      baseUrl: CONFIG['providers.chat.base_url'],
    });
    await expect(loadProviderSettings(await host('{"providers.chat.model": '))).rejects.toBeInstanceOf(
      CorruptConfigError,
    );
    await expect(loadProviderSettings(await host({ 'providers.chat.model': 'm' }))).rejects.toBeInstanceOf(
      ProviderConfigError,
    );
    expect((await loadProviderSettings(await host({}))).chat).toBeUndefined();
  });
});

describe('one chat provider for memory and the harness', () => {
  it('the distiller (chatJson) and the planner talk through the same provider to the configured endpoint', async () => {
    const server = await startChatServer((_n, body) => {
      const system = String((body['messages'] as Array<{ content: string }>)[0]!.content);
      if (system.includes('consolidate'))
        return {
          body: completion('{"distilled": true, "kind": "fact", "statement": "Tests use vitest.", "confidence": 0.8}'),
        };
      return {
        body: completion(
          JSON.stringify({
            steps: [{ key: 'a', title: 'Write the test', goal: 'a test', dependsOn: [], roleHint: 'builder' }],
          }),
        ),
      };
    });
    const settings = resolveProviderSettings({
      env: { AGENTM_LLM_API_KEY: 'sk-shared' },
      config: { 'providers.chat.base_url': server.baseUrl, 'providers.chat.model': 'scripted' },
    });
    const providers = providersFrom(settings);
    const chat = providers.chat!;
    expect(chat).toBeInstanceOf(OpenAICompatibleChat);

    const distilled = await chatJson(chat, [
      { role: 'system', content: 'You consolidate episodes.' },
      { role: 'user', content: 'x' },
    ]);
    expect(distilled).toMatchObject({ distilled: true, statement: 'Tests use vitest.' });
    const draft = await planGoal('Add a test', 'p', { provider: chat, now: () => new Date(0) });
    expect(draft.fallbackReason).toBeUndefined();
    expect(draft.steps.map((s) => s.title)).toEqual(['Write the test']);
    expect(server.requests.map((r) => [r.path, r.body['model'], r.headers['authorization']])).toEqual([
      ['/v1/chat/completions', 'scripted', 'Bearer sk-shared'],
      ['/v1/chat/completions', 'scripted', 'Bearer sk-shared'],
    ]);
  });
});

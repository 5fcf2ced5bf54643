import { MemoryEngineError } from '../errors.js';
import { OpenAIChat } from './openai-chat.js';
import { OpenAIEmbeddings, type OpenAIEndpointSettings } from './openai-embeddings.js';
import type { ChatProvider, EmbeddingProvider } from './provider.js';

/** A provider half-configured (a base URL without a model, or the reverse): fail loud, never guess. */
export class ProviderConfigError extends MemoryEngineError {
  constructor(message: string) {
    super(message, { code: 'EPROVIDERCONFIG' });
  }
}

export interface ProviderSettings {
  readonly embeddings?: OpenAIEndpointSettings | undefined;
  readonly chat?: OpenAIEndpointSettings | undefined;
}

/**
 * Provider settings from the environment (until config carries them): `AGENTM_EMBED_BASE_URL`,
 * `AGENTM_EMBED_MODEL`, `AGENTM_EMBED_API_KEY`, and `AGENTM_CHAT_BASE_URL`, `AGENTM_CHAT_MODEL`,
 * `AGENTM_CHAT_API_KEY`. Neither base URL nor model set → that provider is absent (lexical recall,
 * extractive consolidation, no network). Only one of them set → `ProviderConfigError` naming the other.
 */
export function providerSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderSettings {
  return { embeddings: endpointFromEnv(env, 'EMBED'), chat: endpointFromEnv(env, 'CHAT') };
}

function endpointFromEnv(env: NodeJS.ProcessEnv, kind: 'EMBED' | 'CHAT'): OpenAIEndpointSettings | undefined {
  const baseUrl = env[`AGENTM_${kind}_BASE_URL`]?.trim() ?? '';
  const model = env[`AGENTM_${kind}_MODEL`]?.trim() ?? '';
  if (baseUrl === '' && model === '') return undefined;
  if (baseUrl === '') throw new ProviderConfigError(`AGENTM_${kind}_MODEL is set but AGENTM_${kind}_BASE_URL is not: set the endpoint (e.g. http://127.0.0.1:11434/v1) or unset the model`);
  if (model === '') throw new ProviderConfigError(`AGENTM_${kind}_BASE_URL is set but AGENTM_${kind}_MODEL is not: name the model or unset the base URL`);
  if (!/^https?:\/\//i.test(baseUrl)) throw new ProviderConfigError(`AGENTM_${kind}_BASE_URL must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  const apiKey = env[`AGENTM_${kind}_API_KEY`]?.trim();
  return { baseUrl, model, ...(apiKey ? { apiKey } : {}) };
}

/** The providers the settings describe (undefined where none is configured). */
export function providersFrom(settings: ProviderSettings): { embedder?: EmbeddingProvider; chat?: ChatProvider } {
  return {
    ...(settings.embeddings ? { embedder: new OpenAIEmbeddings(settings.embeddings) } : {}),
    ...(settings.chat ? { chat: new OpenAIChat(settings.chat) } : {}),
  };
}

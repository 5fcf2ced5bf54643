import type * as vscode from 'vscode';
import { providersFrom, providerSettingsFromEnv, type ChatProvider, type EmbeddingProvider, type ProviderSettings } from '@agentm/core';
import { providerApiKey } from '../secrets';
import { readSettings } from '../settings';

/**
 * The memory engine's providers: the `agentm.providers.*` settings (key from SecretStorage) when a base
 * URL is set, else agentm's `AGENTM_EMBED_*` / `AGENTM_CHAT_*` variables. None configured → lexical recall
 * and extractive consolidation, no network. A half-configured endpoint throws core's `ProviderConfigError`.
 */
export async function memoryProviders(secrets: vscode.SecretStorage, env: NodeJS.ProcessEnv): Promise<{ embedder?: EmbeddingProvider; chat?: ChatProvider }> {
  const { providers } = readSettings();
  if (!providers.baseUrl) return providersFrom(providerSettingsFromEnv(env));
  const apiKey = await providerApiKey(secrets);
  const endpoint = (model: string) => (model ? { baseUrl: providers.baseUrl, model, ...(apiKey ? { apiKey } : {}) } : undefined);
  const settings: ProviderSettings = { embeddings: endpoint(providers.embeddingModel), chat: endpoint(providers.chatModel) };
  return providersFrom(settings);
}

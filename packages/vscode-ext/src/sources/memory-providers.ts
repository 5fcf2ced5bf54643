import type * as vscode from 'vscode';
import {
  providersFrom,
  resolveProviderSettings,
  type ChatProvider,
  type ConfigData,
  type EmbeddingProvider,
  type ProviderSettings,
} from '@agentm/core';
import { providerApiKey } from '../secrets';
import { readSettings } from '../settings';

/**
 * The memory engine's providers: the `agentm.providers.*` settings (key from SecretStorage) when a base
 * URL is set, else what the `agentm` CLI uses — `AGENTM_LLM_*` / `AGENTM_EMBED_*` over the config's
 * `providers.*` keys. None configured → lexical recall and extractive consolidation, no network. A
 * half-configured endpoint throws core's `ProviderConfigError` naming the key to set.
 */
export async function memoryProviders(
  secrets: vscode.SecretStorage,
  env: NodeJS.ProcessEnv,
  config: ConfigData = {},
): Promise<{ embedder?: EmbeddingProvider; chat?: ChatProvider }> {
  const { providers } = readSettings();
  if (!providers.baseUrl) return providersFrom(resolveProviderSettings({ env, config }));
  const apiKey = await providerApiKey(secrets);
  const endpoint = (model: string) =>
    model ? { baseUrl: providers.baseUrl, model, ...(apiKey ? { apiKey } : {}) } : undefined;
  const settings: ProviderSettings = {
    embeddings: endpoint(providers.embeddingModel),
    chat: endpoint(providers.chatModel),
  };
  return providersFrom(settings);
}

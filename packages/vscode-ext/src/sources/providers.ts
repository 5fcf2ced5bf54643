import * as vscode from 'vscode';
import { configProviders, ProviderError, type HostEnv, type ProviderSource } from '@agentm/core';
import {
  OpenAICompatibleChat,
  OpenAIEmbeddings,
  ProviderConfigError,
  type ChatProvider,
  type ChatRequest,
  type ChatResponse,
} from '@agentm/core/providers';
import { type ConfigData } from '@agentm/core/config';
import { providerApiKey } from '../secrets';
import { readSettings } from '../settings';
import { LanguageModelChatProvider } from './lm-chat-provider';

/**
 * The window's providers, handed to core's workspace (the platform is picked here, at the edge):
 *
 * - embeddings: the `agentm.providers.*` endpoint (key from SecretStorage) when a base URL is set, else
 *   what the `agentm` CLI uses (`AGENTM_EMBED_*` over the config's `providers.embeddings.*`);
 * - chat: the `agentm.providers.*` endpoint when it names a chat model (an explicit choice for AgentM),
 *   else the language model VS Code offers (`vscode.lm`), else the CLI's (`AGENTM_LLM_*` over
 *   `providers.chat.*`). The same model serves consolidation and plan steps.
 *
 * None available → lexical recall, extractive consolidation, and LLM steps that fail naming the settings.
 */
export function vscodeProviders(secrets: vscode.SecretStorage) {
  return (host: HostEnv, config: ConfigData, warn?: (message: string) => void): ProviderSource => {
    const fromConfig = configProviders(host, config, warn);
    const endpoint = async (model: string) => {
      const { baseUrl } = readSettings().providers;
      if (!baseUrl || !model) return undefined;
      const apiKey = await providerApiKey(secrets);
      return { baseUrl, model, ...(apiKey ? { apiKey } : {}) };
    };
    return {
      async embedder() {
        const { providers } = readSettings();
        if (!providers.baseUrl) return fromConfig.embedder();
        const settings = await endpoint(providers.embeddingModel);
        return settings ? new OpenAIEmbeddings(settings) : undefined;
      },
      async chat() {
        const settings = await endpoint(readSettings().providers.chatModel);
        if (settings) return new OpenAICompatibleChat(settings);
        return (await chosenLanguageModel()) ?? fromConfig.chat();
      },
    };
  };
}

/** The first chat model VS Code offers (Copilot, or any extension's `languageModelChatProviders`), if any. */
async function chosenLanguageModel(): Promise<ChatProvider | undefined> {
  const models = typeof vscode.lm?.selectChatModels === 'function' ? await vscode.lm.selectChatModels() : [];
  return models[0] ? new LanguageModelChatProvider(models[0]) : undefined;
}

/**
 * The run's chat model, handed to core's dispatcher, noting whether the model had trouble (its endpoint
 * failed, refused the key, was misconfigured): the failed-run notification then offers the model
 * settings. Chosen when the run starts, as `agentm run` chooses it: with none, the pre-flight refuses a
 * plan that needs one before anything is claimed.
 */
export class TrackedChatProvider implements ChatProvider {
  #trouble: 'failed' | undefined;

  constructor(private readonly provider: ChatProvider) {}

  get name(): string {
    return this.provider.name;
  }

  get timeoutMs(): number | undefined {
    return this.provider.timeoutMs;
  }

  /** Whether a step could not get an answer from the model in this run. */
  get trouble(): 'failed' | undefined {
    return this.#trouble;
  }

  async chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    try {
      return await this.provider.chat(request, signal);
    } catch (error) {
      if ((error instanceof ProviderError || error instanceof ProviderConfigError) && !signal?.aborted)
        this.#trouble = 'failed';
      throw error;
    }
  }
}

/** The text a refusal for want of a model adds in VS Code: where this editor finds one. */
export const VSCODE_MODEL_HINT =
  'in VS Code: install a language model provider (e.g. GitHub Copilot), or set agentm.providers.baseUrl and agentm.providers.chatModel (key: "AgentM: Set provider API key…")';

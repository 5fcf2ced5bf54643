import * as vscode from 'vscode';
import {
  configProviders,
  OpenAICompatibleChat,
  OpenAIEmbeddings,
  ProviderConfigError,
  ProviderError,
  type ChatProvider,
  type ChatRequest,
  type ChatResponse,
  type ConfigData,
  type HostEnv,
  type ProviderSource,
} from '@agentm/core';
import { ExtensionError } from '../errors';
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
 * The chat provider handed to core's dispatcher. The model is chosen on the first LLM step, not when the
 * run starts: a plan of `cmd::` steps never asks VS Code for a model (nor shows its consent prompt).
 */
export class LazyChatProvider implements ChatProvider {
  #chosen: Promise<ChatProvider | undefined> | undefined;
  #name = 'chat model (chosen at the first LLM step)';
  #trouble: 'missing' | 'failed' | undefined;

  constructor(private readonly choose: () => Promise<ChatProvider | undefined>) {}

  get name(): string {
    return this.#name;
  }

  /**
   * Why a step could not get an answer from a model, if that happened: no model was available, or the
   * model's endpoint failed (unreachable, refused the key, misconfigured). Either way the fix is the
   * model settings, which the failed-run notification offers.
   */
  get trouble(): 'missing' | 'failed' | undefined {
    return this.#trouble;
  }

  async chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    let provider: ChatProvider | undefined;
    try {
      this.#chosen ??= this.choose();
      provider = await this.#chosen;
    } catch (error) {
      if (error instanceof ProviderConfigError) this.#trouble = 'failed';
      throw error;
    }
    if (!provider) {
      this.#trouble = 'missing';
      throw new NoChatModelError();
    }
    this.#name = provider.name;
    try {
      return await provider.chat(request, signal);
    } catch (error) {
      if (error instanceof ProviderError && !signal?.aborted) this.#trouble ??= 'failed';
      throw error;
    }
  }
}

/** An LLM step ran with no model to ask. */
export class NoChatModelError extends ExtensionError {
  override name = 'NoChatModelError';
  constructor() {
    super(
      'no chat model is available for this step: install a VS Code language model provider (e.g. GitHub Copilot), ' +
        'or set agentm.providers.baseUrl and agentm.providers.chatModel (key: "AgentM: Set provider API key…")',
    );
  }
}

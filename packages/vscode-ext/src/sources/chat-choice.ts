import * as vscode from 'vscode';
import {
  OpenAICompatibleChat,
  providersFrom,
  resolveProviderSettings,
  type ChatProvider,
  type ChatRequest,
  type ChatResponse,
  type ConfigData,
} from '@agentm/core';
import { ExtensionError } from '../errors';
import { providerApiKey } from '../secrets';
import { readSettings } from '../settings';
import { LanguageModelChatProvider } from './lm-chat-provider';

/**
 * Picks the model a plan's LLM steps talk to: the `agentm.providers.*` endpoint, else a VS Code language
 * model, else what the `agentm` CLI uses (`AGENTM_LLM_*` over the config's `providers.chat.*`); undefined
 * when none is available.
 */
export async function chooseChatProvider(
  secrets: vscode.SecretStorage,
  env: NodeJS.ProcessEnv,
  config: ConfigData = {},
): Promise<ChatProvider | undefined> {
  const { providers } = readSettings();
  // An endpoint the user configured for AgentM is an explicit choice: it wins over whatever model VS Code offers.
  if (providers.baseUrl && providers.chatModel) {
    const apiKey = await providerApiKey(secrets);
    return new OpenAICompatibleChat({
      baseUrl: providers.baseUrl,
      model: providers.chatModel,
      ...(apiKey ? { apiKey } : {}),
    });
  }
  const models = typeof vscode.lm?.selectChatModels === 'function' ? await vscode.lm.selectChatModels() : [];
  if (models[0]) return new LanguageModelChatProvider(models[0]);
  return providersFrom(resolveProviderSettings({ env, config })).chat;
}

/**
 * The chat provider handed to core's dispatcher. The model is chosen on the first LLM step, not when the
 * run starts: a plan of `cmd::` steps never asks VS Code for a model (nor shows its consent prompt).
 */
export class LazyChatProvider implements ChatProvider {
  #chosen: Promise<ChatProvider | undefined> | undefined;
  #name = 'chat model (chosen at the first LLM step)';

  constructor(private readonly choose: () => Promise<ChatProvider | undefined>) {}

  get name(): string {
    return this.#name;
  }

  async chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    this.#chosen ??= this.choose();
    const provider = await this.#chosen;
    if (!provider) {
      throw new ExtensionError(
        'no chat model is available for this step: install a VS Code language model provider (e.g. GitHub Copilot), ' +
          'or set agentm.providers.baseUrl and agentm.providers.chatModel (key: "AgentM: Set provider API key…")',
      );
    }
    this.#name = provider.name;
    return provider.chat(request, signal);
  }
}

import type { HostEnv } from '../../config/host.js';
import { OpenAICompatibleChatClient } from '../../providers/chat-client.js';
import type { OpenAIEndpointSettings } from '../../providers/openai-embeddings.js';
import {
  loadProviderSettings,
  PROVIDER_CONFIG_KEYS,
  PROVIDER_ENV,
  ProviderConfigError,
  resolveProviderSettings,
} from '../../providers/settings.js';
import { HarnessError } from '../errors.js';
import type { HarnessChatProvider } from './chat-provider.js';
import { OpenAiChatProvider } from './openai-provider.js';

/** The chat provider's environment variables (the same the memory distiller reads). */
export const LLM_ENV = PROVIDER_ENV.chat;

/** What to tell a user who has no chat provider configured. */
export const NO_PROVIDER_HINT =
  `no chat provider is configured: set ${LLM_ENV.baseUrl} (e.g. http://localhost:11434/v1) and ${LLM_ENV.model} ` +
  `(and ${LLM_ENV.apiKey} if the endpoint needs a key), or config keys ${PROVIDER_CONFIG_KEYS.chat.baseUrl} and ${PROVIDER_CONFIG_KEYS.chat.model}`;

/** A chat provider setting that cannot work (half configured, not a URL). */
export class ChatConfigError extends HarnessError {
  constructor(message: string) {
    super(message, { code: 'ECHATCONFIG' });
  }
}

function asChatConfigError(error: unknown): unknown {
  return error instanceof ProviderConfigError ? new ChatConfigError(error.message) : error;
}

/** The harness provider for chat settings (undefined: none configured), or over an existing shared client. */
export function chatProviderFrom(
  settings: OpenAIEndpointSettings | OpenAICompatibleChatClient | undefined,
): HarnessChatProvider | undefined {
  return settings === undefined ? undefined : new OpenAiChatProvider(settings);
}

/**
 * The OpenAI-compatible provider from `AGENTM_LLM_BASE_URL`, `AGENTM_LLM_MODEL`, `AGENTM_LLM_API_KEY`
 * (the environment alone; `loadChatProvider` adds the config file). Neither base URL nor model set →
 * undefined (no LLM: the planner falls back to one step). Only one of them, or a base URL that is not
 * http(s) → `ChatConfigError` naming the variable.
 */
export function chatProviderFromEnv(env: NodeJS.ProcessEnv): HarnessChatProvider | undefined {
  try {
    return chatProviderFrom(resolveProviderSettings({ env }).chat);
  } catch (error) {
    throw asChatConfigError(error);
  }
}

/**
 * The harness's chat provider for a host: config keys `providers.chat.*` overridden by `AGENTM_LLM_*`
 * (see `resolveProviderSettings`), with the deprecation warnings to show. A half configuration →
 * `ChatConfigError` naming the variable and the key; a corrupt config file → `CorruptConfigError`.
 */
export async function loadChatProvider(
  host: HostEnv,
): Promise<{ provider: HarnessChatProvider | undefined; warnings: readonly string[] }> {
  try {
    const settings = await loadProviderSettings(host);
    return { provider: chatProviderFrom(settings.chat), warnings: settings.warnings };
  } catch (error) {
    throw asChatConfigError(error);
  }
}

import { HarnessError } from '../errors.js';
import type { HarnessChatProvider } from './chat-provider.js';
import { OpenAiChatProvider } from './openai-provider.js';

export const LLM_ENV = { baseUrl: 'AGENTM_LLM_BASE_URL', model: 'AGENTM_LLM_MODEL', apiKey: 'AGENTM_LLM_API_KEY' } as const;

/** What to tell a user who has no chat provider configured. */
export const NO_PROVIDER_HINT =
  `no chat provider is configured: set ${LLM_ENV.baseUrl} (e.g. http://localhost:11434/v1) and ${LLM_ENV.model} ` + `(and ${LLM_ENV.apiKey} if the endpoint needs a key)`;

/** A chat provider setting that cannot work (half configured, not a URL). */
export class ChatConfigError extends HarnessError {
  constructor(message: string) {
    super(message, { code: 'ECHATCONFIG' });
  }
}

/**
 * The OpenAI-compatible provider from `AGENTM_LLM_BASE_URL`, `AGENTM_LLM_MODEL`, `AGENTM_LLM_API_KEY`.
 * Neither base URL nor model set → undefined (no LLM: the planner falls back to one step). Only one of
 * them, or a base URL that is not http(s) → `ChatConfigError` naming the variable.
 */
export function chatProviderFromEnv(env: NodeJS.ProcessEnv): HarnessChatProvider | undefined {
  const baseUrl = env[LLM_ENV.baseUrl]?.trim() ?? '';
  const model = env[LLM_ENV.model]?.trim() ?? '';
  const apiKey = env[LLM_ENV.apiKey]?.trim() ?? '';
  if (baseUrl === '' && model === '') return undefined;
  if (baseUrl === '') throw new ChatConfigError(`${LLM_ENV.model} is set but ${LLM_ENV.baseUrl} is not: set it to the endpoint's base URL (e.g. http://localhost:11434/v1)`);
  if (model === '') throw new ChatConfigError(`${LLM_ENV.baseUrl} is set but ${LLM_ENV.model} is not: set it to the model name the endpoint serves`);
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ChatConfigError(`${LLM_ENV.baseUrl}=${JSON.stringify(baseUrl)} is not a URL: use e.g. http://localhost:11434/v1`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ChatConfigError(`${LLM_ENV.baseUrl} must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  return new OpenAiChatProvider({ baseUrl, model, ...(apiKey ? { apiKey } : {}) });
}

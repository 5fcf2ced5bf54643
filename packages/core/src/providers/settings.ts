import { readConfigStrict, type ConfigData } from '../config/config-file.js';
import type { HostEnv } from '../config/host.js';
import { AgentMError, EXIT_USAGE } from '../seam/errors.js';
import type { ChatProvider } from './chat.js';
import type { EmbeddingProvider } from './embeddings.js';
import type { OpenAIEndpointSettings } from './http-json.js';
import { OpenAICompatibleChat } from './openai-chat.js';
import { OpenAIEmbeddings } from './openai-embeddings.js';

/** A provider configured in a way that cannot work (half configured, not a URL, a non-string value): fail loud, never guess. */
export class ProviderConfigError extends AgentMError {
  override readonly exitCode: number = EXIT_USAGE;
  constructor(message: string) {
    super(message, { code: 'EPROVIDERCONFIG' });
  }
}

export type ProviderRole = 'chat' | 'embeddings';

export interface ProviderFieldNames {
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey: string;
}

/**
 * The config keys of `.agentm-config.json` (flat, dotted, like agentm's). One chat provider serves the
 * memory distiller and the harness (LLM steps, planner); the embeddings provider serves hybrid recall.
 */
export const PROVIDER_CONFIG_KEYS: Readonly<Record<ProviderRole, ProviderFieldNames & { readonly timeoutMs: string }>> =
  Object.freeze({
    chat: {
      baseUrl: 'providers.chat.base_url',
      model: 'providers.chat.model',
      apiKey: 'providers.chat.api_key',
      timeoutMs: 'providers.chat.timeout_ms',
    },
    embeddings: {
      baseUrl: 'providers.embeddings.base_url',
      model: 'providers.embeddings.model',
      apiKey: 'providers.embeddings.api_key',
      timeoutMs: 'providers.embeddings.timeout_ms',
    },
  });

/** The environment variables, which override the config key by key. */
export const PROVIDER_ENV: Readonly<Record<ProviderRole, ProviderFieldNames>> = Object.freeze({
  chat: { baseUrl: 'AGENTM_LLM_BASE_URL', model: 'AGENTM_LLM_MODEL', apiKey: 'AGENTM_LLM_API_KEY' },
  embeddings: { baseUrl: 'AGENTM_EMBED_BASE_URL', model: 'AGENTM_EMBED_MODEL', apiKey: 'AGENTM_EMBED_API_KEY' },
});

/** Deprecated aliases, still read (after the current names) with a warning: the memory engine's first chat variables. */
export const DEPRECATED_PROVIDER_ENV: Readonly<Partial<Record<ProviderRole, ProviderFieldNames>>> = Object.freeze({
  chat: { baseUrl: 'AGENTM_CHAT_BASE_URL', model: 'AGENTM_CHAT_MODEL', apiKey: 'AGENTM_CHAT_API_KEY' },
});

export interface ProviderSettings {
  readonly embeddings?: OpenAIEndpointSettings | undefined;
  readonly chat?: OpenAIEndpointSettings | undefined;
}

export interface ResolvedProviderSettings extends ProviderSettings {
  /** Deprecated variables in use, each with its replacement. */
  readonly warnings: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

interface Found {
  readonly value: string;
  /** `AGENTM_LLM_MODEL`, or `config key providers.chat.model`. */
  readonly source: string;
}

function stringField(
  role: ProviderRole,
  field: keyof ProviderFieldNames,
  env: Env,
  config: ConfigData,
  warnings: string[],
): Found | undefined {
  const primary = PROVIDER_ENV[role][field];
  const fromEnv = env[primary]?.trim();
  if (fromEnv) return { value: fromEnv, source: primary };
  const alias = DEPRECATED_PROVIDER_ENV[role]?.[field];
  const fromAlias = alias ? env[alias]?.trim() : undefined;
  if (alias && fromAlias) {
    warnings.push(`${alias} is deprecated: use ${primary} (one chat provider serves memory and the harness)`);
    return { value: fromAlias, source: alias };
  }
  const key = PROVIDER_CONFIG_KEYS[role][field];
  const raw = config[key];
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'string')
    throw new ProviderConfigError(
      `config key ${key} must be a string, got ${JSON.stringify(raw)}: fix it with agentm config set ${key} <value>, or unset it`,
    );
  return raw.trim() === '' ? undefined : { value: raw.trim(), source: `config key ${key}` };
}

function timeoutField(role: ProviderRole, config: ConfigData): number | undefined {
  const key = PROVIDER_CONFIG_KEYS[role].timeoutMs;
  const raw = config[key];
  if (raw === undefined || raw === null) return undefined;
  const n = typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0)
    throw new ProviderConfigError(
      `config key ${key} must be a positive number of milliseconds, got ${JSON.stringify(raw)}`,
    );
  return n;
}

function endpoint(
  role: ProviderRole,
  env: Env,
  config: ConfigData,
  warnings: string[],
): OpenAIEndpointSettings | undefined {
  const names = PROVIDER_ENV[role];
  const keys = PROVIDER_CONFIG_KEYS[role];
  const baseUrl = stringField(role, 'baseUrl', env, config, warnings);
  const model = stringField(role, 'model', env, config, warnings);
  if (!baseUrl && !model) return undefined;
  if (!baseUrl) {
    throw new ProviderConfigError(
      `${model!.source} is set but ${names.baseUrl} is not (nor config key ${keys.baseUrl}): set it to the endpoint's base URL (e.g. http://127.0.0.1:11434/v1), or unset the model`,
    );
  }
  if (!model)
    throw new ProviderConfigError(
      `${baseUrl.source} is set but ${names.model} is not (nor config key ${keys.model}): set it to the model name the endpoint serves, or unset the base URL`,
    );
  let url: URL;
  try {
    url = new URL(baseUrl.value);
  } catch {
    throw new ProviderConfigError(
      `${baseUrl.source}=${JSON.stringify(baseUrl.value)} is not a URL: use e.g. http://127.0.0.1:11434/v1`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ProviderConfigError(`${baseUrl.source} must be an http(s) URL, got ${JSON.stringify(baseUrl.value)}`);
  const apiKey = stringField(role, 'apiKey', env, config, warnings)?.value;
  const timeoutMs = timeoutField(role, config);
  return {
    baseUrl: baseUrl.value,
    model: model.value,
    ...(apiKey ? { apiKey } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}

/**
 * The provider settings from the environment and the config, field by field: the environment
 * (`AGENTM_LLM_*` for chat, `AGENTM_EMBED_*` for embeddings; the deprecated `AGENTM_CHAT_*` after
 * them) overrides the config keys (`providers.chat.*`, `providers.embeddings.*`). Neither base URL nor
 * model → that provider is absent (no network: lexical recall, extractive consolidation, single-step
 * planning). Only one of them, a base URL that is not http(s), or a non-string value →
 * `ProviderConfigError` naming the variable and the key to set.
 */
export function resolveProviderSettings(input: { env?: Env; config?: ConfigData } = {}): ResolvedProviderSettings {
  const env = input.env ?? process.env;
  const config = input.config ?? {};
  const warnings: string[] = [];
  const embeddings = endpoint('embeddings', env, config, warnings);
  const chat = endpoint('chat', env, config, warnings);
  return { embeddings, chat, warnings: [...new Set(warnings)] };
}

/**
 * The settings for this host: its config file (`<install prefix>/.agentm-config.json`, read strictly:
 * a corrupt file throws `CorruptConfigError`) under its environment.
 */
export async function loadProviderSettings(host: HostEnv): Promise<ResolvedProviderSettings> {
  const { data } = await readConfigStrict(host);
  return resolveProviderSettings({ env: host.env, config: data ?? {} });
}

/** The providers a context works with; each is absent when none is configured (no network). */
export interface Providers {
  readonly embedder?: EmbeddingProvider | undefined;
  readonly chat?: ChatProvider | undefined;
}

/** The providers the settings describe: one chat client serves memory and the harness. */
export function providersFrom(settings: ProviderSettings): Providers {
  return {
    ...(settings.embeddings ? { embedder: new OpenAIEmbeddings(settings.embeddings) } : {}),
    ...(settings.chat ? { chat: new OpenAICompatibleChat(settings.chat) } : {}),
  };
}

/** What to tell a user who has no chat provider configured. */
export const NO_PROVIDER_HINT =
  `no chat provider is configured: set ${PROVIDER_ENV.chat.baseUrl} (e.g. http://localhost:11434/v1) and ${PROVIDER_ENV.chat.model} ` +
  `(and ${PROVIDER_ENV.chat.apiKey} if the endpoint needs a key), or config keys ${PROVIDER_CONFIG_KEYS.chat.baseUrl} and ${PROVIDER_CONFIG_KEYS.chat.model}`;

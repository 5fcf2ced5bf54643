import { MemoryIndex, ProviderConfigError, providersFrom, providerSettingsFromEnv, type ChatProvider, type EmbeddingProvider } from '../memory/engine.js';
import { memoryStore, toDocument } from './commands/memory-stopgap.js';
import { CliError, EXIT_USAGE } from './errors.js';

/** Providers from the environment; a half-configured one is a usage error naming the variable. */
export function cliProviders(env: NodeJS.ProcessEnv): { embedder?: EmbeddingProvider; chat?: ChatProvider } {
  try {
    return providersFrom(providerSettingsFromEnv(env));
  } catch (error) {
    if (error instanceof ProviderConfigError) throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
}

/** Opens the index of the selected memory root (in the user cache dir), with the embedder if configured. */
export async function openCliIndex(env: NodeJS.ProcessEnv): Promise<{ index: MemoryIndex; embedder: EmbeddingProvider | undefined }> {
  const { backend, root } = await memoryStore(env);
  const { embedder } = cliProviders(env);
  const index = await MemoryIndex.open({ backend, memoryRoot: root, toDocument, env, embedder });
  return { index, embedder };
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90s`, `30m`, `1h`, `7d`, `2w`, or plain milliseconds → milliseconds; a usage error otherwise. */
export function parseDuration(text: string, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/.exec(text);
  if (!m) throw new CliError(`${flag} takes a duration such as 30m, 1h or 7d, got ${JSON.stringify(text)}`, EXIT_USAGE);
  return Number(m[1]) * UNITS[m[2] ?? 'ms']!;
}

/** A positive integer option; a usage error otherwise. */
export function parsePositiveInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) <= 0) throw new CliError(`${flag} takes a positive whole number, got ${JSON.stringify(text)}`, EXIT_USAGE);
  return Number(text);
}

import type { ConfigData } from '../../config/config-file.js';
import type { HostEnv } from '../../config/host.js';
import type { ChatProvider } from '../../providers/chat.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';
import {
  PROVIDER_CONFIG_KEYS,
  PROVIDER_ENV,
  providersFrom,
  resolveProviderSettings,
} from '../../providers/settings.js';
import type { ProviderSource } from '../options.js';
import type { DoctorCheck } from './check.js';
import { messageOf } from './setup-checks.js';

/** How long a live probe of an endpoint may take. */
export const PROBE_TIMEOUT_MS = 10_000;

const WITHOUT = {
  chat: 'LLM plan steps fail, planning is one step, consolidation extractive',
  embeddings: 'recall is lexical',
} as const;

/** A live request: a one-token chat turn, or one embedding. Undefined when it answered within the probe's bound. */
async function probe(
  chat: ChatProvider | undefined,
  embedder: EmbeddingProvider | undefined,
): Promise<string | undefined> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`no answer within ${PROBE_TIMEOUT_MS / 1000} s`);
      controller.abort(error);
      reject(error);
    }, PROBE_TIMEOUT_MS);
  });
  try {
    const asked = chat
      ? chat.chat({ messages: [{ role: 'user', content: 'ping' }], maxTokens: 1 }, controller.signal)
      : embedder!.embed(['ping']);
    await Promise.race([asked, late]);
    return undefined;
  } catch (error) {
    return messageOf(error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The chat model and embeddings this context would use (`providers`: the workspace's own source, so an
 * editor's language model or endpoint setting counts; else the `providers.*` keys under
 * `AGENTM_LLM_*`/`AGENTM_EMBED_*`). Half a configuration fails, naming what to set, as every command
 * would refuse it; none is a hint saying what works without it; with `live`, one request to each,
 * saying what it answered and how long it took.
 */
export async function providerChecks(
  host: HostEnv,
  config: ConfigData,
  providers: ProviderSource | undefined,
  options: { readonly live?: boolean } = {},
): Promise<DoctorCheck[]> {
  let settings;
  try {
    settings = resolveProviderSettings({ env: host.env, config });
  } catch (error) {
    if (providers === undefined) return [{ id: 'providers', status: 'fail', message: messageOf(error) }];
    settings = undefined; // the context's own source may not use these settings: ask it below
  }
  const source = providers ?? {
    chat: async () => providersFrom(settings!).chat,
    embedder: async () => providersFrom(settings!).embedder,
  };
  const checks: DoctorCheck[] = [];
  const refused = new Set<string>();
  for (const role of ['chat', 'embeddings'] as const) {
    const id = `provider ${role}`;
    let chat: ChatProvider | undefined;
    let embedder: EmbeddingProvider | undefined;
    try {
      if (role === 'chat') chat = await source.chat();
      else embedder = await source.embedder();
    } catch (error) {
      // Half a configuration refuses both roles with one message: one check.
      const message = messageOf(error);
      if (!refused.has(message)) checks.push({ id: 'providers', status: 'fail', message });
      refused.add(message);
      continue;
    }
    const name = chat?.name ?? embedder?.id;
    if (name === undefined) {
      checks.push({
        id,
        status: 'info',
        message: `none configured (${WITHOUT[role]})`,
        fix:
          `set ${PROVIDER_ENV[role].baseUrl} and ${PROVIDER_ENV[role].model}, ` +
          `or agentm config set ${PROVIDER_CONFIG_KEYS[role].baseUrl} … and ${PROVIDER_CONFIG_KEYS[role].model} …`,
      });
      continue;
    }
    if (!options.live) {
      checks.push({ id, status: 'ok', message: `${name} (not contacted; agentm doctor --providers asks it)` });
      continue;
    }
    const started = Date.now();
    const problem = await probe(chat, embedder);
    const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
    checks.push(
      problem === undefined
        ? { id, status: 'ok', message: `${name} answered in ${took}` }
        : { id, status: 'fail', message: `${name}: ${problem}` },
    );
  }
  for (const w of settings?.warnings ?? []) checks.push({ id: 'providers', status: 'warn', message: w });
  return checks;
}

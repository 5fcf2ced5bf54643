/**
 * Local embedding servers on this machine — Ollama and LM Studio — found by asking each for its models,
 * so that `agentm init` and `agentm doctor` can offer semantic recall that never leaves the machine. A
 * quick GET of a model list on 127.0.0.1 (nothing is sent but the request), each bounded by a short
 * timeout and asked in parallel: detection never holds up a command, and nothing is configured by it —
 * `init` asks, or takes `--embed-local`.
 */

/** The Ollama server (its own API lists models at `/api/tags`); `AGENTM_OLLAMA_URL` overrides it. */
export const OLLAMA_URL = 'http://127.0.0.1:11434';
/** The LM Studio server (OpenAI-compatible `/v1/models`); `AGENTM_LMSTUDIO_URL` overrides it. */
export const LMSTUDIO_URL = 'http://127.0.0.1:1234';
/** Set to `0` (or `false`, `off`): no detection at all. */
export const DETECT_ENV = 'AGENTM_DETECT_LOCAL';

/** How long one server may take to list its models. */
export const DETECT_TIMEOUT_MS = 400;

/** The embedding model offered when a server has it: small, good, and Ollama's most pulled one. */
export const PREFERRED_EMBEDDING_MODEL = 'nomic-embed-text';

/** A local server that answered, and what it offers for embeddings. */
export interface LocalServer {
  readonly name: 'Ollama' | 'LM Studio';
  /** Where it answered (as configured or by default). */
  readonly url: string;
  /** Its OpenAI-compatible base URL: what `providers.embeddings.base_url` takes. */
  readonly baseUrl: string;
  /** Its embedding models, as it names them. */
  readonly embeddingModels: readonly string[];
  /** The one to offer (nomic-embed-text when it has it); undefined when it has none. */
  readonly offer: string | undefined;
  /** When it has none: the exact command that gets one. */
  readonly getOne: string | undefined;
}

type Env = Readonly<Record<string, string | undefined>>;

/** Whether detection is switched off (`AGENTM_DETECT_LOCAL=0`). */
export function detectionOff(env: Env): boolean {
  return /^(0|false|off|no)$/i.test(env[DETECT_ENV]?.trim() ?? '');
}

async function getJson(url: string, timeoutMs: number): Promise<unknown> {
  const response = await fetch(url, {
    signal: AbortSignal.timeout(timeoutMs),
    headers: { accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json() as Promise<unknown>;
}

const base = (url: string) => url.trim().replace(/\/+$/, '');

/** Ollama's embedding models: named so, or of an embedding family (BERT-like encoders). */
export function ollamaEmbeddingModels(tags: unknown): string[] | undefined {
  const models = (tags as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return undefined;
  const out: string[] = [];
  for (const m of models as Array<{ name?: unknown; details?: { family?: unknown; families?: unknown } }>) {
    if (typeof m?.name !== 'string') continue;
    const families = [m.details?.family, ...(Array.isArray(m.details?.families) ? m.details.families : [])];
    if (/embed/i.test(m.name) || families.some((f) => typeof f === 'string' && /bert/i.test(f)))
      out.push(m.name.replace(/:latest$/, ''));
  }
  return out;
}

/** LM Studio's embedding models (its ids say so: `text-embedding-…`). */
export function openAiEmbeddingModels(list: unknown): string[] | undefined {
  const data = (list as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return undefined;
  return (data as Array<{ id?: unknown }>)
    .map((m) => m?.id)
    .filter((id): id is string => typeof id === 'string' && /embed/i.test(id));
}

/** The model to offer among `models`: the preferred one when there, else the first. */
export function offerOf(models: readonly string[]): string | undefined {
  return models.find((m) => m.includes(PREFERRED_EMBEDDING_MODEL)) ?? models[0];
}

/**
 * The local servers that answer (in this order: Ollama, LM Studio), each with its embedding models and
 * the one to offer, or how to get one. `[]` when detection is off or nothing answers in time.
 */
export async function detectLocalServers(env: Env, timeoutMs = DETECT_TIMEOUT_MS): Promise<LocalServer[]> {
  if (detectionOff(env)) return [];
  const kinds = [
    {
      name: 'Ollama' as const,
      url: base(env['AGENTM_OLLAMA_URL'] || OLLAMA_URL),
      list: '/api/tags',
      models: ollamaEmbeddingModels,
      getOne: `ollama pull ${PREFERRED_EMBEDDING_MODEL}`,
    },
    {
      name: 'LM Studio' as const,
      url: base(env['AGENTM_LMSTUDIO_URL'] || LMSTUDIO_URL),
      list: '/v1/models',
      models: openAiEmbeddingModels,
      getOne: `download an embedding model in LM Studio (search "${PREFERRED_EMBEDDING_MODEL}") and load it`,
    },
  ];
  const found = await Promise.all(
    kinds.map(async (kind): Promise<LocalServer | undefined> => {
      const models = kind.models(await getJson(`${kind.url}${kind.list}`, timeoutMs).catch(() => undefined));
      if (models === undefined) return undefined;
      const offer = offerOf(models);
      const getOne = offer === undefined ? kind.getOne : undefined;
      return { name: kind.name, url: kind.url, baseUrl: `${kind.url}/v1`, embeddingModels: models, offer, getOne };
    }),
  );
  return found.filter((s): s is LocalServer => s !== undefined);
}

/** The first server that has an embedding model to offer. */
export function bestLocalServer(servers: readonly LocalServer[]): LocalServer | undefined {
  return servers.find((s) => s.offer !== undefined);
}

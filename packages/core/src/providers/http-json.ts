import { redactSecrets } from '../text/redact.js';
import {
  ProviderError,
  ProviderHttpError,
  ProviderMalformedError,
  ProviderTimeoutError,
  ProviderUnreachableError,
} from './errors.js';

/** An OpenAI-compatible endpoint: where it is, which model, the key, and an optional per-request bound. */
export interface OpenAIEndpointSettings {
  /** e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string | undefined;
  /** Per request (embeddings default 15 s; chat: none of its own, JSON completions 60 s). */
  readonly timeoutMs?: number | undefined;
}

/** The largest answer read from a provider unless configured otherwise: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** The environment variable that sets the cap (bytes) for every provider request of a process. */
export const MAX_RESPONSE_BYTES_ENV = 'AGENTM_PROVIDER_MAX_RESPONSE_BYTES';

/** An answer larger than the cap: reading stopped there (a runaway or hostile endpoint cannot exhaust memory). */
export class ProviderResponseTooLargeError extends ProviderError {
  readonly maxBytes: number;
  constructor(endpoint: string, maxBytes: number, source: string) {
    super(
      endpoint,
      `provider ${endpoint} sent an answer larger than ${formatBytes(maxBytes)} (${source}); reading stopped there. ` +
        `Ask for less (fewer texts per request), or raise the cap with ${MAX_RESPONSE_BYTES_ENV}=<bytes>`,
      { code: 'EPROVIDERTOOLARGE' },
    );
    this.maxBytes = maxBytes;
  }
}

function formatBytes(n: number): string {
  return n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MiB` : `${n} bytes`;
}

/**
 * The response cap: the request's own, else `AGENTM_PROVIDER_MAX_RESPONSE_BYTES`, else 32 MiB, and
 * where it came from (for the error). A value that is not a positive whole number is ignored.
 */
export function maxResponseBytes(
  requested: number | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): { bytes: number; source: string } {
  if (requested !== undefined && Number.isInteger(requested) && requested > 0)
    return { bytes: requested, source: 'the request' };
  const fromEnv = Number(env[MAX_RESPONSE_BYTES_ENV]);
  if (Number.isInteger(fromEnv) && fromEnv > 0)
    return { bytes: fromEnv, source: `${MAX_RESPONSE_BYTES_ENV}=${fromEnv}` };
  return { bytes: DEFAULT_MAX_RESPONSE_BYTES, source: 'the default' };
}

/**
 * The body as text, reading at most `max` bytes: a larger body (by its content-length, or once the
 * bytes read pass the cap) aborts the request and throws `ProviderResponseTooLargeError`. Chunks are
 * kept as bytes and decoded once, so the peak is about the cap, not several copies of the answer.
 */
async function readCapped(
  url: string,
  response: Response,
  cap: { bytes: number; source: string },
  abort: () => void,
): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > cap.bytes) {
    abort();
    throw new ProviderResponseTooLargeError(url, cap.bytes, cap.source);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap.bytes) {
      chunks.length = 0;
      abort();
      await reader.cancel().catch(() => undefined);
      throw new ProviderResponseTooLargeError(url, cap.bytes, cap.source);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}

export interface HttpJsonOptions {
  readonly apiKey?: string | undefined;
  /** Give up after this long (`ProviderTimeoutError`); 0 or absent: no timer of its own. */
  readonly timeoutMs?: number | undefined;
  /** The caller's cancellation (a deadline, Ctrl-C): the request stops and its reason is thrown. */
  readonly signal?: AbortSignal | undefined;
  /** Extra headers (some gateways want them). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The largest answer read (default: `AGENTM_PROVIDER_MAX_RESPONSE_BYTES`, else 32 MiB). */
  readonly maxResponseBytes?: number | undefined;
}

/**
 * POSTs JSON and returns the parsed JSON answer. Typed failures: non-2xx → `ProviderHttpError`; no
 * answer within the timeout → `ProviderTimeoutError`; connection failure → `ProviderUnreachableError`;
 * a body that is not JSON → `ProviderMalformedError`; a body over the cap → `ProviderResponseTooLargeError`;
 * the caller's signal aborted → its reason (an Error), else `ProviderTimeoutError`. The API key is sent
 * as a bearer token and never appears in an error message: a body quoted in one (an endpoint that echoes
 * the key in its 401) passes through the secret redactor first.
 */
export async function postJson(url: string, body: unknown, options: HttpJsonOptions): Promise<unknown> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json',
    ...options.headers,
  };
  if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
  const controller = new AbortController();
  const timeoutMs = options.timeoutMs ?? 0;
  const timer = timeoutMs > 0 ? setTimeout(() => controller.abort(), timeoutMs) : undefined;
  const outer = options.signal;
  const onOuter = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener('abort', onOuter, { once: true });
  const cap = maxResponseBytes(options.maxResponseBytes);
  let text: string;
  let status: number;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    status = response.status;
    text = await readCapped(url, response, cap, () => controller.abort());
  } catch (error) {
    if (error instanceof ProviderResponseTooLargeError) throw error;
    if (outer?.aborted)
      throw outer.reason instanceof Error ? outer.reason : new ProviderTimeoutError(url, timeoutMs, error);
    if (controller.signal.aborted) throw new ProviderTimeoutError(url, timeoutMs, error);
    throw new ProviderUnreachableError(url, (error as { cause?: unknown }).cause ?? error);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
  const secrets = options.apiKey ? [options.apiKey] : [];
  if (status < 200 || status > 299) throw new ProviderHttpError(url, status, redactSecrets(text.trim(), secrets));
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const clean = redactSecrets(text, secrets);
    const shown = clean.length > 80 ? `${clean.slice(0, 80)}…` : clean;
    throw new ProviderMalformedError(url, `the body is not JSON (${shown || 'empty'})`, error);
  }
}

/** `<base>/v1/<path>`, accepting a base URL that already ends in `/v1` (Ollama, LM Studio, llama.cpp, OpenAI). */
export function endpointUrl(baseUrl: string, path: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return /\/v1$/.test(base) ? `${base}/${path}` : `${base}/v1/${path}`;
}

import { ProviderHttpError, ProviderMalformedError, ProviderTimeoutError, ProviderUnreachableError } from './errors.js';

/** An OpenAI-compatible endpoint: where it is, which model, the key, and an optional per-request bound. */
export interface OpenAIEndpointSettings {
  /** e.g. `http://127.0.0.1:11434/v1` (Ollama) or `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string | undefined;
  /** Per request (embeddings default 15 s; chat: none of its own, JSON completions 60 s). */
  readonly timeoutMs?: number | undefined;
}

export interface HttpJsonOptions {
  readonly apiKey?: string | undefined;
  /** Give up after this long (`ProviderTimeoutError`); 0 or absent: no timer of its own. */
  readonly timeoutMs?: number | undefined;
  /** The caller's cancellation (a deadline, Ctrl-C): the request stops and its reason is thrown. */
  readonly signal?: AbortSignal | undefined;
  /** Extra headers (some gateways want them). */
  readonly headers?: Readonly<Record<string, string>> | undefined;
}

/**
 * POSTs JSON and returns the parsed JSON answer. Typed failures: non-2xx → `ProviderHttpError`; no
 * answer within the timeout → `ProviderTimeoutError`; connection failure → `ProviderUnreachableError`;
 * a body that is not JSON → `ProviderMalformedError`; the caller's signal aborted → its reason (an
 * Error), else `ProviderTimeoutError`. The API key is sent as a bearer token and never appears in an
 * error message.
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
    text = await response.text();
  } catch (error) {
    if (outer?.aborted)
      throw outer.reason instanceof Error ? outer.reason : new ProviderTimeoutError(url, timeoutMs, error);
    if (controller.signal.aborted) throw new ProviderTimeoutError(url, timeoutMs, error);
    throw new ProviderUnreachableError(url, (error as { cause?: unknown }).cause ?? error);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', onOuter);
  }
  if (status < 200 || status > 299) throw new ProviderHttpError(url, status, text.trim());
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ProviderMalformedError(
      url,
      `the body is not JSON (${text.length > 80 ? `${text.slice(0, 80)}…` : text || 'empty'})`,
      error,
    );
  }
}

/** `<base>/v1/<path>`, accepting a base URL that already ends in `/v1` (Ollama, LM Studio, llama.cpp, OpenAI). */
export function endpointUrl(baseUrl: string, path: string): string {
  const base = baseUrl.trim().replace(/\/+$/, '');
  return /\/v1$/.test(base) ? `${base}/${path}` : `${base}/v1/${path}`;
}

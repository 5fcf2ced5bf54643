import { AgentMError } from '../seam/errors.js';

/**
 * Errors of the provider layer (chat models and embedding endpoints). A `ProviderError` is a runtime
 * failure of a provider that was configured well: recall degrades to lexical and consolidation to
 * extractive on one. A provider configured in a way that cannot work is a `ProviderConfigError`
 * (settings.ts), which is never a `ProviderError`: misconfiguration is loud.
 */

/** Base of provider failures (embeddings, chat). Recall and consolidation degrade on these. */
export class ProviderError extends AgentMError {
  readonly endpoint: string;
  constructor(endpoint: string, message: string, options?: { cause?: unknown; code?: string }) {
    super(message, { code: options?.code ?? 'EPROVIDER', cause: options?.cause });
    this.endpoint = endpoint;
  }
}

/**
 * A provider that failed before and is not asked again until its retry is due (see the embeddings health
 * of the memory index): callers degrade as for any failure, without telling the person again — they were
 * told once, when it started failing.
 */
export class ProviderRestingError extends ProviderError {
  readonly retryAtMs: number;
  constructor(endpoint: string, message: string, retryAtMs: number, cause?: unknown) {
    super(endpoint, message, { code: 'EPROVIDERRESTING', cause });
    this.retryAtMs = retryAtMs;
  }
}

/**
 * The phrase each HTTP status carries in provider error messages, so that a reader of the text alone
 * types it: 429/5xx retryable, 401/403 permission, 400 and 404 for the caller to fix. The harness's
 * classifier reads the status's phrase, not the message, which also names the endpoint and quotes its body.
 */
export const HTTP_STATUS_PHRASES: Readonly<Record<number, string>> = Object.freeze({
  400: 'invalid argument',
  401: 'not authorized',
  403: 'forbidden',
  404: 'not found',
  408: 'timed out',
  429: 'rate limit',
  500: 'internal server error',
  502: 'service unavailable',
  503: 'service unavailable',
  504: 'timed out',
  529: 'overloaded',
});

/** The phrase of a status (`HTTP_STATUS_PHRASES`; other 5xx: service unavailable; other 4xx: invalid argument). */
export function httpStatusPhrase(status: number): string {
  return HTTP_STATUS_PHRASES[status] ?? (status >= 500 ? 'service unavailable' : 'invalid argument');
}

/** The provider answered with a non-2xx status. */
export class ProviderHttpError extends ProviderError {
  readonly status: number;
  constructor(endpoint: string, status: number, body: string) {
    const excerpt = body.length > 300 ? `${body.slice(0, 300)}…` : body;
    super(
      endpoint,
      `provider ${endpoint} answered HTTP ${status} (${httpStatusPhrase(status)})${excerpt ? `: ${excerpt}` : ''}; check the base URL, model name and API key`,
      { code: 'EPROVIDERHTTP' },
    );
    this.status = status;
  }
}

/** The provider did not answer within the timeout (or the caller gave up). */
export class ProviderTimeoutError extends ProviderError {
  readonly timeoutMs: number;
  constructor(endpoint: string, timeoutMs: number, cause?: unknown) {
    super(
      endpoint,
      `provider ${endpoint} did not answer within ${timeoutMs} ms (timed out); check that the server is running or raise the timeout`,
      {
        code: 'EPROVIDERTIMEOUT',
        cause,
      },
    );
    this.timeoutMs = timeoutMs;
  }
}

/** The provider could not be reached at all (connection refused, DNS failure). */
export class ProviderUnreachableError extends ProviderError {
  constructor(endpoint: string, cause: unknown) {
    const detail = (cause as NodeJS.ErrnoException)?.code ?? (cause as Error)?.message ?? String(cause);
    super(
      endpoint,
      `provider ${endpoint} is unreachable (${detail}: service unavailable); check the base URL and that the server is running`,
      {
        code: 'EPROVIDERUNREACHABLE',
        cause,
      },
    );
  }
}

/** The provider answered 2xx with a body that is not the expected JSON shape. */
export class ProviderMalformedError extends ProviderError {
  constructor(endpoint: string, detail: string, cause?: unknown) {
    super(endpoint, `provider ${endpoint} returned a malformed answer: ${detail}; check that it is OpenAI-compatible`, {
      code: 'EPROVIDERMALFORMED',
      cause,
    });
  }
}

/** The embedding provider returned vectors of a dimension other than the one expected. */
export class EmbeddingDimensionError extends ProviderError {
  readonly expected: number;
  readonly actual: number;
  constructor(endpoint: string, expected: number, actual: number) {
    super(
      endpoint,
      `provider ${endpoint} returned ${actual}-dimensional embeddings where ${expected} were expected; ` +
        'the model changed: run `agentm reindex --full` to re-embed with the new model',
      { code: 'EEMBEDDIM' },
    );
    this.expected = expected;
    this.actual = actual;
  }
}

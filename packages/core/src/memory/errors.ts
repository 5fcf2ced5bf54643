import { AgentMError } from '../seam/errors.js';

/**
 * Errors of the memory engine (index, recall, providers, consolidation). Callers catch by family:
 * a provider failure degrades recall to lexical; an index failure is rebuilt; a bad argument is the
 * caller's to fix.
 */
export class MemoryEngineError extends AgentMError {}

/** A caller passed a value the engine cannot use (a negative k, an unknown phase budget value, …). */
export class MemoryArgumentError extends MemoryEngineError {
  constructor(message: string) {
    super(message, { code: 'EMEMORYARG' });
  }
}

/**
 * The on-disk index could not be used (missing, corrupt, written by another schema). Never surfaced
 * to users by itself: the index rebuilds from the Markdown, which is the source of truth.
 */
export class IndexUnusableError extends MemoryEngineError {
  readonly reason: 'missing' | 'corrupt' | 'outdated';
  constructor(reason: 'missing' | 'corrupt' | 'outdated', detail: string, cause?: unknown) {
    super(`the memory index is ${reason}: ${detail}; it will be rebuilt from the notes (nothing is lost)`, { code: 'EINDEXUNUSABLE', cause });
    this.reason = reason;
  }
}

/** The index directory would sit inside the memory root, where sync would replicate it. */
export class IndexLocationError extends MemoryEngineError {
  constructor(indexDir: string, root: string) {
    super(
      `refusing to keep the memory index at ${indexDir}: it is inside the memory root ${root}, where sync tools would ` +
        'replicate a device-local cache. Pass an index directory outside the vault (the default is the user cache dir).',
      { code: 'EINDEXLOCATION' },
    );
  }
}

/** Base of provider failures (embeddings, chat). Recall and consolidation degrade on these. */
export class ProviderError extends MemoryEngineError {
  readonly endpoint: string;
  constructor(endpoint: string, message: string, options?: { cause?: unknown; code?: string }) {
    super(message, { code: options?.code ?? 'EPROVIDER', cause: options?.cause });
    this.endpoint = endpoint;
  }
}

/** The provider answered with a non-2xx status. */
export class ProviderHttpError extends ProviderError {
  readonly status: number;
  constructor(endpoint: string, status: number, body: string) {
    const excerpt = body.length > 200 ? `${body.slice(0, 200)}…` : body;
    super(
      endpoint,
      `provider ${endpoint} answered HTTP ${status}${excerpt ? `: ${excerpt}` : ''}; check the base URL, model name and API key`,
      { code: 'EPROVIDERHTTP' },
    );
    this.status = status;
  }
}

/** The provider did not answer within the timeout (or the connection failed). */
export class ProviderTimeoutError extends ProviderError {
  readonly timeoutMs: number;
  constructor(endpoint: string, timeoutMs: number, cause?: unknown) {
    super(endpoint, `provider ${endpoint} did not answer within ${timeoutMs} ms; check that the server is running or raise the timeout`, {
      code: 'EPROVIDERTIMEOUT',
      cause,
    });
    this.timeoutMs = timeoutMs;
  }
}

/** The provider could not be reached at all (connection refused, DNS failure). */
export class ProviderUnreachableError extends ProviderError {
  constructor(endpoint: string, cause: unknown) {
    super(endpoint, `provider ${endpoint} is unreachable (${(cause as Error)?.message ?? String(cause)}); check the base URL`, {
      code: 'EPROVIDERUNREACHABLE',
      cause,
    });
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

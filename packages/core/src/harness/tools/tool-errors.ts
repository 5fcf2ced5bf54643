import { ProviderError, ProviderHttpError, httpStatusPhrase } from '../../providers/errors.js';
import { AgentMError } from '../../seam/errors.js';
import { HarnessError } from '../errors.js';

export type ToolErrorType = 'validation' | 'not_found' | 'permission' | 'timeout' | 'unavailable' | 'internal';

/**
 * A tool error as the model sees it (memQL `StructuredToolError`). The split that matters: user-fixable
 * (validation, not_found: the model can change its call) vs retryable (timeout, unavailable, internal:
 * the same call may work later); permission is neither.
 */
export interface StructuredToolError {
  readonly type: ToolErrorType;
  readonly message: string;
  readonly retryable: boolean;
  readonly userFixable: boolean;
  /** How many attempts were made (omitted from JSON when 0). */
  readonly attempts: number;
  readonly details?: Readonly<Record<string, unknown>>;
}

const USER_FIXABLE: readonly ToolErrorType[] = ['validation', 'not_found'];
const RETRYABLE: readonly ToolErrorType[] = ['timeout', 'unavailable', 'internal'];

/** A structured error with its derived flags; a fresh one has made 1 attempt. */
export function structuredToolError(
  type: ToolErrorType,
  message: string,
  attempts = 1,
  details?: Readonly<Record<string, unknown>>,
): StructuredToolError {
  return {
    type,
    message,
    retryable: RETRYABLE.includes(type),
    userFixable: USER_FIXABLE.includes(type),
    attempts,
    ...(details && Object.keys(details).length > 0 ? { details } : {}),
  };
}

/** A tool's own typed failure: thrown by tool implementations, mapped by type without reading the text. */
export class ToolError extends HarnessError {
  readonly type: ToolErrorType;
  readonly details?: Readonly<Record<string, unknown>>;
  constructor(type: ToolErrorType, message: string, details?: Readonly<Record<string, unknown>>) {
    super(message, { code: `ETOOL_${type.toUpperCase()}` });
    this.type = type;
    if (details) this.details = details;
  }
}

/** The JSON fed back to the model: key order type, message, retryable, userFixable, attempts?, details?. */
export function toolErrorJson(error: StructuredToolError | null): string {
  if (error === null) return '{"type":"internal","message":"nil error","retryable":false,"userFixable":false}';
  return JSON.stringify({
    type: error.type,
    message: error.message,
    retryable: error.retryable,
    userFixable: error.userFixable,
    ...(error.attempts !== 0 ? { attempts: error.attempts } : {}),
    ...(error.details && Object.keys(error.details).length > 0 ? { details: error.details } : {}),
  });
}

/** `<type>: <message>`. */
export function toolErrorString(error: StructuredToolError): string {
  return `${error.type}: ${error.message}`;
}

/** Ordered substring buckets: the first bucket with a match wins (memQL's order). */
export const CLASSIFICATION_BUCKETS: ReadonlyArray<readonly [ToolErrorType, readonly string[]]> = [
  [
    'validation',
    [
      'additional property',
      'invalid argument',
      'validation',
      'required field',
      'missing required',
      'must be one of',
      'invalid field',
      'not allowed:',
    ],
  ],
  [
    'permission',
    [
      'permission denied',
      'not authorized',
      'is not allowed for',
      'forbidden',
      'agent-only',
      'scope_elevation',
      'out of scope',
    ],
  ],
  ['not_found', ['not found', 'unknown tool', 'no handler', 'does not exist', 'unknown function', 'unknown concept']],
  ['timeout', ['timeout', 'deadline exceeded', 'context deadline', 'timed out']],
  [
    'unavailable',
    [
      'overloaded',
      'rate limit',
      'rate_limit',
      'service unavailable',
      '503',
      '529',
      'connection reset',
      'temporarily unavailable',
    ],
  ],
];

/** AgentM's own error codes, mapped like memQL maps its engine codes (the text is not consulted). */
const CODE_TYPES: Readonly<Record<string, ToolErrorType>> = {
  EINVALIDLOCATOR: 'validation',
  ENOENT: 'not_found',
  EPATHESCAPE: 'permission',
  ELOCKTIMEOUT: 'timeout',
  ECONFLICT: 'unavailable',
};

/**
 * Provider failures of a known kind map by what happened, never by their text: the text names the
 * endpoint and quotes its answer, and a port such as `:45030` reads as "503", a body as anything.
 */
const PROVIDER_CODE_TYPES: Readonly<Record<string, ToolErrorType>> = {
  EPROVIDERTIMEOUT: 'timeout',
  EPROVIDERUNREACHABLE: 'unavailable',
  EPROVIDERRESTING: 'unavailable',
  EPROVIDERMALFORMED: 'internal',
  EPROVIDERTOOLARGE: 'internal',
  EEMBEDDIM: 'internal',
};

/** An HTTP failure's type is its status's phrase's (`httpStatusPhrase`), classified as a message would be. */
function providerErrorType(error: ProviderError): ToolErrorType | undefined {
  if (error instanceof ProviderHttpError) return classifyMessage(httpStatusPhrase(error.status));
  return PROVIDER_CODE_TYPES[error.code];
}

/** The type a message's text implies (ordered buckets over the lower-cased text; else internal). */
export function classifyMessage(message: string): ToolErrorType {
  const lower = message.toLowerCase();
  for (const [type, needles] of CLASSIFICATION_BUCKETS) if (needles.some((n) => lower.includes(n))) return type;
  return 'internal';
}

/**
 * Maps any thrown value to a structured error. A `ToolError` (anywhere in the `cause` chain) keeps its
 * type and its own message; an AgentM error with a known code, or a provider failure of a known kind,
 * maps by code (an HTTP failure by its status); anything else is classified by its message. The message
 * is kept verbatim. `null`/`undefined` → null.
 */
export function classifyToolError(error: unknown): StructuredToolError | null {
  if (error === null || error === undefined) return null;
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    if (e instanceof ToolError) return structuredToolError(e.type, e.message, 1, e.details);
    if (e instanceof AgentMError && CODE_TYPES[e.code]) return structuredToolError(CODE_TYPES[e.code]!, e.message);
    const providerType = e instanceof ProviderError ? providerErrorType(e) : undefined;
    if (providerType) return structuredToolError(providerType, e.message);
  }
  const message = error instanceof Error ? error.message : String(error);
  return structuredToolError(classifyMessage(message), message);
}

const OVERFLOW = [
  'context_length_exceeded',
  'context length exceeded',
  'maximum context length',
  'exceeds the context window',
  'prompt is too long',
  'reduce the length of the messages',
];

/** Whether an error says the prompt no longer fits the model's context window. */
export function isContextOverflow(error: unknown): boolean {
  const text = (error instanceof Error ? error.message : String(error ?? '')).toLowerCase();
  return OVERFLOW.some((n) => text.includes(n));
}

import { callSignature } from './loop-detector.js';
import { contentHash } from '../../write-protocol/content-hash.js';

/**
 * The idempotency key of one tool call: lower-case hex of the first 16 bytes of sha256 over the
 * trimmed step key, NUL, and the call signature (tool name, NUL, canonical arguments). 32 hex chars;
 * an empty step key still contributes the leading NUL. Argument key order does not change it.
 */
export function idempotencyKeyFor(stepKey: string, toolName: string, rawArgs: string): string {
  return contentHash(`${stepKey.trim()}\u0000${callSignature(toolName, rawArgs)}`).slice(0, 32);
}

/** Where successful tool results are remembered by idempotency key. */
export interface IdempotencyStore {
  get(key: string): string | undefined;
  put(key: string, result: string): void;
}

/** The loop-local store: a map. Only successful results are put in it, so a failed call is retried. */
export class MapIdempotencyStore implements IdempotencyStore {
  readonly #map = new Map<string, string>();
  constructor(seed: Iterable<readonly [string, string]> = []) {
    for (const [k, v] of seed) this.#map.set(k, v);
  }
  get(key: string): string | undefined {
    return this.#map.get(key);
  }
  put(key: string, result: string): void {
    this.#map.set(key, result);
  }
}

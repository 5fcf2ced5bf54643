import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { createRequire } from 'node:module';

/**
 * Node's crypto module, loaded on first use. Core imports it only through here, never statically
 * (.dependency-cruiser.cjs): loading it costs a new process ~7 ms (seventeen internal modules), and a
 * prompt hook or `agentm recall` hashes nothing but a few names (`contentHash` below).
 */
export function nodeCrypto(): typeof import('node:crypto') {
  // Built-in modules resolve alike from any path: '/' serves the ES modules, a CommonJS bundle and tests.
  return (crypto ??= createRequire('/')('node:crypto') as typeof import('node:crypto'));
}
let crypto: typeof import('node:crypto') | undefined;

/**
 * The hashes a process computes in JavaScript (`@noble/hashes`) before it loads Node's crypto for good:
 * enough for a hook's names (the lock, index and service keys of a vault path), not for a build's notes.
 */
const SCRIPT_HASHES = 32;
/** Inputs larger than this always go to Node's crypto. */
const SCRIPT_BYTES = 4096;
let scriptHashes = 0;

/** sha256 hex of the UTF-8 bytes: the CAS currency. A string and its UTF-8 bytes hash equal. */
export function contentHash(data: string | Uint8Array): string {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  if (crypto === undefined && bytes.length <= SCRIPT_BYTES && scriptHashes < SCRIPT_HASHES) {
    scriptHashes++;
    // A view made here: the library checks `instanceof Uint8Array`, and a Buffer (or an editor's test
    // DOM) may come from another realm.
    return bytesToHex(sha256(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)));
  }
  return nodeCrypto().createHash('sha256').update(bytes).digest('hex');
}

/** The first 12 hex characters, as messages show a hash. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

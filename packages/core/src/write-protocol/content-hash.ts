import { createHash } from 'node:crypto';

/** sha256 hex of the UTF-8 bytes: the CAS currency. A string and its UTF-8 bytes hash equal. */
export function contentHash(data: string | Uint8Array): string {
  return createHash('sha256')
    .update(typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
    .digest('hex');
}

/** The first 12 hex characters, as messages show a hash. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

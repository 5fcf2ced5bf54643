// contentHash is the CAS currency and names the lock, index and service of a vault path (the Python agentm
// derives the same names): whichever implementation computes it — JavaScript for a process's first few
// small inputs, Node's crypto after — it is sha256 hex of the UTF-8 bytes.
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { contentHash } from '../../src/write-protocol/content-hash.js';

const sha256 = (data: string | Uint8Array) =>
  createHash('sha256')
    .update(typeof data === 'string' ? Buffer.from(data, 'utf8') : data)
    .digest('hex');

it('is sha256 hex of the UTF-8 bytes for any text or bytes, small or large, first call or thousandth', () => {
  expect(contentHash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  expect(contentHash('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  // A process's first small inputs (the JavaScript implementation's), then any mix.
  const firsts = fc.sample(
    fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.uint8Array({ maxLength: 300 })),
    {
      numRuns: 28,
      seed: 19,
    },
  );
  for (const data of firsts) expect(contentHash(data)).toBe(sha256(data));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 64 }),
        fc.string({ unit: 'binary', minLength: 4000, maxLength: 4200 }),
        fc.uint8Array({ maxLength: 200 }),
        fc.uint8Array({ minLength: 4090, maxLength: 4100 }),
      ),
      (data) => {
        const hash = contentHash(data);
        expect(hash).toBe(sha256(data));
        if (typeof data === 'string') expect(contentHash(Buffer.from(data, 'utf8'))).toBe(hash);
      },
    ),
    { numRuns: 300 },
  );
});

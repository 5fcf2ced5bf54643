// A recall's snippet starts near the first word of the note's preview that stands for a query term. The
// snippet skips stemming words whose first letter begins no query term (most of a preview): that must
// never skip the word that matches — inflections, identifiers whose parts match, accents, irregular stems.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/memory/indexing/tokenize.js';
import { makeSnippet } from '../../src/memory/recall/snippet.js';

const POOL = [
  'configure',
  'configuring',
  'configuration',
  'deploy',
  'deployment',
  'dying',
  'die',
  'skies',
  'sky',
  'happy',
  'happiness',
  'yelling',
  'Yield',
  'getUserById',
  'userId',
  'HTTPServer',
  'server',
  'café',
  'cafe',
  'naïve',
  'ID',
  'id',
  'watchers',
  'debounce',
  'debounced',
  'Ü2',
];
const FILLER = ['lorem', 'ipsum', 'dolor', 'amet', 'tempor', 'magna', 'aliqua', 'veniam', 'nostrud', 'fugiat'];

/** Where the first word standing for one of `terms` starts in `flat`, by the analyzer itself. */
function firstMatch(flat: string, terms: readonly string[]): number {
  const wanted = new Set(terms);
  for (const m of flat.matchAll(/[\p{L}\p{N}]{2,}/gu)) if (tokenize(m[0]).some((t) => wanted.has(t))) return m.index;
  return -1;
}

describe('makeSnippet', () => {
  it('starts at or shortly before the first word that matches, whatever its spelling', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...FILLER), fc.constantFrom(...POOL)), { minLength: 20, maxLength: 120 }),
        fc.array(fc.constantFrom(...POOL), { minLength: 1, maxLength: 3 }),
        (words, query) => {
          const flat = words.join(' ');
          const terms = tokenize(query.join(' '));
          const snippet = makeSnippet(flat, terms, 80);
          const at = firstMatch(flat, terms);
          const body = snippet.replace(/^…/, '').replace(/…$/, '');
          if (flat.length <= 80) expect(snippet).toBe(flat);
          else if (at < 0) expect(flat.startsWith(body)).toBe(true);
          else {
            // The excerpt holds the matching word: it begins at most a third of its width before it.
            const start = flat.lastIndexOf(body, at);
            expect(start).toBeGreaterThanOrEqual(Math.max(0, at - 27));
            expect(start + body.length).toBeGreaterThan(at);
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('finds an inflected word past the width', () => {
    const text = `${'lorem ipsum '.repeat(20)}we were configuring the watchers yesterday`;
    const snippet = makeSnippet(text, tokenize('configuration'), 60);
    expect(snippet).toMatch(/^…/);
    expect(snippet).toContain('configuring the watchers');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../src/memory/indexing/tokenize.js';
import { TermScanner } from '../../src/memory/indexing/term-scanner.js';
import { supersededKeys } from '../../src/memory/indexing/supersession.js';

/** The terms a scanner yields for `text` (through a dictionary of its own), as strings. */
function scanned(scanner: TermScanner, terms: string[], text: string, from?: number, to?: number): string[] {
  const out: string[] = [];
  scanner.scan(text, (id) => out.push(terms[id]!), from, to);
  return out;
}

function freshScanner(): { scanner: TermScanner; terms: string[] } {
  const terms: string[] = [];
  const ids = new Map<string, number>();
  const scanner = new TermScanner((t) => {
    let id = ids.get(t);
    if (id === undefined) ids.set(t, (id = terms.push(t) - 1));
    return id;
  });
  return { scanner, terms };
}

// Words, cases, plurals, stop words, digits, punctuation, ASCII control and whitespace, and non-ASCII
// letters, marks, ligatures, Greek sigma and odd spaces: whatever tokenize does, the scanner must.
const piece = fc.oneof(
  fc.constantFrom(
    'Lock',
    'locks',
    'POLICIES',
    'the',
    'a',
    'x',
    'v2',
    '2026',
    'café',
    'CAFÉ',
    'ﬁle',
    'ΣΟΦΟΣ',
    'ναί',
    'İstanbul',
    'naïve',
    'e\u0301',
    '東京',
    'ab_cd',
    'a'.repeat(41),
    'status',
    'glass',
    'getUserById',
    'HTTPServer',
    'utf8Decoder',
    'RETRY_DELAY',
    'iPhone',
    'ABc',
    'deployments',
    'configuring',
  ),
  fc.constantFrom(' ', '\n', '\t', '\r\n', '.', ',', '—', '\u00a0', '\u3000', '#', '-', '\u0000', '/', "'"),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);

describe('TermScanner', () => {
  it('yields exactly the terms tokenize yields, for any text and any range of it', () => {
    const { scanner, terms } = freshScanner();
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.nat(), fc.nat(), (pieces, a, b) => {
        const text = pieces.join('');
        expect(scanned(scanner, terms, text)).toEqual(tokenize(text));
        const from = text.length === 0 ? 0 : a % (text.length + 1);
        const to = from + (text.length === from ? 0 : b % (text.length - from + 1));
        expect(scanned(scanner, terms, text, from, to)).toEqual(tokenize(text.slice(from, to)));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps recognising words after its surface cache has grown many times', () => {
    const { scanner, terms } = freshScanner();
    const words = Array.from({ length: 20_000 }, (_, i) => `Word${i.toString(36)}s`);
    const text = words.join(' ');
    expect(scanned(scanner, terms, text)).toEqual(tokenize(text));
    expect(scanned(scanner, terms, text)).toEqual(tokenize(text));
  });
});

describe('supersededKeys', () => {
  it.each([
    ['memory/fix/x.md', ['memory/fix/x.md', 'fix/x.md', 'x.md']],
    ['Agent/memory/fix/x', ['Agent/memory/fix/x.md', 'memory/fix/x.md', 'fix/x.md', 'x.md']],
    [
      './desk/projects/p/ref/y.md',
      ['desk/projects/p/ref/y.md', 'projects/p/ref/y.md', 'p/ref/y.md', 'ref/y.md', 'y.md'],
    ],
    ['  ', []],
  ])('%j names %j', (value, keys) => {
    expect(supersededKeys(value)).toEqual(keys);
  });
});

import { describe, expect, it } from 'vitest';
import { printable } from '../../src/seam/printable.js';
import { slugify } from '../../src/memory/notes/slugify.js';

describe('printable', () => {
  it.each([
    ['plain text, tabs\tand\nnewlines', 'plain text, tabs\tand\nnewlines'],
    ['crlf\r\nkept', 'crlf\r\nkept'],
    ['\x1b]0;pwned\x07title', '\\x1b]0;pwned\\x07title'],
    ['\x1b[2Jclear', '\\x1b[2Jclear'],
    ['over\rwrite', 'over\\x0dwrite'],
    ['nul\x00del\x7f c1\x9b', 'nul\\x00del\\x7f c1\\x9b'],
    ['bidi \u202egnp.exe', 'bidi \\u202egnp.exe'],
    ['café ναί 🦗', 'café ναί 🦗'],
  ])('%j → %j', (input, output) => {
    expect(printable(input)).toBe(output);
  });
});

describe('slugify', () => {
  it.each([
    ['pick-stdlib', 'pick-stdlib'],
    ['Use Tabs, not Spaces!', 'use-tabs-not-spaces'],
    ['Café au lait', 'cafe-au-lait'],
    ['../../etc/passwd', 'etc-passwd'],
    ['!!!', ''],
    ['a'.repeat(200), 'a'.repeat(80)],
  ])('%j → %j', (input, output) => {
    expect(slugify(input)).toBe(output);
  });
});

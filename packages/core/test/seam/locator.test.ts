import fc from 'fast-check';
import { join, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidLocatorError } from '../../src/seam/errors.js';
import { Locator, normalizeKey } from '../../src/seam/locator.js';

describe('normalizeKey', () => {
  it.each([
    ['', ''],
    ['/', ''],
    ['a', 'a'],
    ['a/b/c', 'a/b/c'],
    ['/a/b', 'a/b'],
    ['a//b', 'a/b'],
    ['./a/./b/.', 'a/b'],
    ['a/b/', 'a/b'],
    ['...', '...'],
    [' b', ' b'],
    ['café/ναί 🦗.md', 'café/ναί 🦗.md'],
  ])('normalizes %j to %j', (input, expected) => {
    expect(normalizeKey(input)).toBe(expected);
  });

  it.each([['..'], ['a/../b'], ['../x'], ['a/..'], ['..\\..\\Windows'], ['a\\b'], ['a\0b'], ['/..']])(
    'rejects %j with InvalidLocatorError',
    (input) => {
      expect(() => normalizeKey(input)).toThrow(InvalidLocatorError);
    },
  );

  it('says why a parent segment is refused', () => {
    expect(() => normalizeKey('a/../b')).toThrow(/'\.\.' is not allowed/);
    expect(() => normalizeKey('a\\b')).toThrow(/backslash/);
  });
});

describe('Locator', () => {
  it('exposes key, parts, name, parent and child', () => {
    const loc = new Locator('/desk/projects/agentm/_harness/PLAN.md');
    expect(loc.key).toBe('desk/projects/agentm/_harness/PLAN.md');
    expect(loc.parts).toEqual(['desk', 'projects', 'agentm', '_harness', 'PLAN.md']);
    expect(loc.name).toBe('PLAN.md');
    expect(loc.parent.key).toBe('desk/projects/agentm/_harness');
    expect(String(loc)).toBe(loc.key);
    expect(new Locator('').child('x').key).toBe('x');
    expect(new Locator('a').child('b/c', 'd').key).toBe('a/b/c/d');
    expect(Locator.root.parts).toEqual([]);
    expect(Locator.root.name).toBe('');
    expect(Locator.root.parent.equals(Locator.root)).toBe(true);
  });

  it('compares by value and is immutable', () => {
    expect(new Locator('a//b').equals(new Locator('a/b'))).toBe(true);
    expect(new Locator('a').equals('a')).toBe(false);
    const loc = new Locator('a');
    expect(() => {
      (loc as { key: string }).key = 'b';
    }).toThrow(TypeError);
  });

  it('refuses to derive an escaping child', () => {
    expect(() => new Locator('a').child('..', '..', 'etc')).toThrow(InvalidLocatorError);
  });
});

/** Keys built from segments that include the dangerous ones, so the property explores them. */
const segment = fc.oneof(
  fc.constantFrom('', '.', '..', '...', 'a', 'b c', '\\', 'x\\y', '\0', 'café', '🦗'),
  fc.string({ maxLength: 6 }),
);
const key = fc.array(segment, { maxLength: 8 }).map((parts) => parts.join('/'));

describe('normalization properties', () => {
  it('gives a child the key normalizing the joined keys would give, or refuses it alike', () => {
    fc.assert(
      fc.property(key, key, (parent, name) => {
        let base: Locator;
        try {
          base = new Locator(parent);
        } catch {
          return true;
        }
        const joined = () => new Locator(`${base.key}/${name}`).key;
        let want: string | InvalidLocatorError;
        try {
          want = joined();
        } catch (error) {
          want = error as InvalidLocatorError;
        }
        if (want instanceof InvalidLocatorError) {
          expect(() => base.child(name)).toThrow(InvalidLocatorError);
          return true;
        }
        return base.child(name).key === want;
      }),
      { numRuns: 2000 },
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(key, (k) => {
        let once: string;
        try {
          once = normalizeKey(k);
        } catch (error) {
          return error instanceof InvalidLocatorError;
        }
        return normalizeKey(once) === once;
      }),
      { numRuns: 2000 },
    );
  });

  it('never addresses outside the root', () => {
    const root = resolve('/srv/vault');
    fc.assert(
      fc.property(fc.array(key, { minLength: 1, maxLength: 3 }), (keys) => {
        let loc: Locator;
        try {
          loc = keys.slice(1).reduce((acc, k) => acc.child(k), new Locator(keys[0]));
        } catch (error) {
          return error instanceof InvalidLocatorError;
        }
        const path = loc.isRoot ? root : join(root, ...loc.parts);
        const inside = path === root || path.startsWith(root + sep);
        const clean = loc.parts.every(
          (p) => p !== '' && p !== '.' && p !== '..' && !p.includes('\\') && !p.includes('\0'),
        );
        return inside && clean;
      }),
      { numRuns: 2000 },
    );
  });
});

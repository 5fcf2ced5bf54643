import { InvalidLocatorError } from './errors.js';

/**
 * Normalizes a backend-relative key: split on `/`, drop empty and `.` segments (so a leading `/` is
 * relativized), and reject `..`, backslash and NUL. The result can never address outside the root.
 *
 * Backslash is refused rather than translated: on Windows `..\..\x` would otherwise escape the root
 * (a real agentm bug).
 */
export function normalizeKey(key: string): string {
  const raw = String(key);
  const kept: string[] = [];
  for (const segment of raw.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      throw new InvalidLocatorError(
        raw,
        "'..' is not allowed in a storage locator; use a key relative to the store root",
      );
    }
    if (segment.includes('\\') || segment.includes('\0')) {
      throw new InvalidLocatorError(
        raw,
        'a segment contains a backslash or NUL; backslash is a Windows path separator and is refused so no key can escape the root',
      );
    }
    kept.push(segment);
  }
  return kept.join('/');
}

/** Known only to this module: a key built here from a normalized key and a plain segment. */
const NORMALIZED: unique symbol = Symbol('normalized');

/** A segment `normalizeKey` keeps as it is: non-empty, not `.` or `..`, no `/`, backslash or NUL. */
function isPlainSegment(segment: string): boolean {
  return (
    segment !== '' &&
    segment !== '.' &&
    segment !== '..' &&
    !segment.includes('/') &&
    !segment.includes('\\') &&
    !segment.includes('\0')
  );
}

/**
 * An opaque, immutable place in a backend's namespace. Not a filesystem path: it exposes only
 * namespace operations, and every way of building one normalizes, so none can escape the root.
 */
export class Locator {
  readonly key: string;

  constructor(key = '', normalized?: typeof NORMALIZED) {
    this.key = normalized === NORMALIZED ? key : normalizeKey(key);
    Object.freeze(this);
  }

  /** The backend root (`""`). */
  static readonly root: Locator = new Locator('');

  /** The key's segments; `[]` for the root. */
  get parts(): readonly string[] {
    return this.key === '' ? [] : this.key.split('/');
  }

  /** The final segment; `""` for the root. */
  get name(): string {
    const i = this.key.lastIndexOf('/');
    return i < 0 ? this.key : this.key.slice(i + 1);
  }

  /** The parent locator; the root's parent is the root. */
  get parent(): Locator {
    const i = this.key.lastIndexOf('/');
    return i < 0 ? Locator.root : new Locator(this.key.slice(0, i));
  }

  get isRoot(): boolean {
    return this.key === '';
  }

  /** A sub-locator; each part may itself contain `/` and is normalized. */
  child(...parts: string[]): Locator {
    // One plain name (a directory's entry, what a walk of 100 000 notes makes): joined without
    // splitting the whole key again.
    if (parts.length === 1 && isPlainSegment(parts[0]!))
      return new Locator(this.key === '' ? parts[0]! : `${this.key}/${parts[0]!}`, NORMALIZED);
    return new Locator([this.key, ...parts].join('/'));
  }

  equals(other: unknown): boolean {
    return other instanceof Locator && other.key === this.key;
  }

  toString(): string {
    return this.key;
  }

  toJSON(): string {
    return this.key;
  }
}

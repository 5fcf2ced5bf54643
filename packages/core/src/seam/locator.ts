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

/**
 * An opaque, immutable place in a backend's namespace. Not a filesystem path: it exposes only
 * namespace operations, and every way of building one normalizes, so none can escape the root.
 */
export class Locator {
  readonly key: string;

  constructor(key = '') {
    this.key = normalizeKey(key);
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

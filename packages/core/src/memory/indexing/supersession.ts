/**
 * Which notes a `supersedes:` field names. agentm writes a vault-relative path (`save --supersedes P`,
 * or evolve's archive path); the index's keys are relative to the memory root, which may be a folder
 * of the vault (`Agent/`). So a value names the note whose key is the value or one of its trailing
 * parts: `Agent/memory/fix/x.md` names `memory/fix/x.md`. A value without `.md` gets it. Pure.
 */
export function supersededKeys(value: string): string[] {
  let path = value.trim().replace(/^\.?\/+/, '');
  if (path === '') return [];
  if (!/\.md$/i.test(path)) path = `${path}.md`;
  const keys = [path];
  for (let at = path.indexOf('/'); at >= 0; at = path.indexOf('/', at + 1)) keys.push(path.slice(at + 1));
  return keys;
}

/**
 * Live counts of the notes each key is superseded by. A note is superseded while at least one live
 * document names it; removing the last one makes it recallable again.
 */
export class SupersededKeys {
  readonly #counts = new Map<string, number>();

  /** Records that a document names `value`; returns the keys it covers. */
  add(value: string, self: string): string[] {
    const keys = supersededKeys(value).filter((k) => k !== self);
    for (const k of keys) this.#counts.set(k, (this.#counts.get(k) ?? 0) + 1);
    return keys;
  }

  /** Forgets one document naming `value`; returns the keys it covered. */
  remove(value: string, self: string): string[] {
    const keys = supersededKeys(value).filter((k) => k !== self);
    for (const k of keys) {
      const n = (this.#counts.get(k) ?? 0) - 1;
      if (n > 0) this.#counts.set(k, n);
      else this.#counts.delete(k);
    }
    return keys;
  }

  has(key: string): boolean {
    return this.#counts.has(key);
  }

  get size(): number {
    return this.#counts.size;
  }
}

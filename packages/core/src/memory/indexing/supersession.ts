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
 * The note an evolve archive was made from: `…/_archive/<note key>.<YYYYMMDD>[-N].md` (the name
 * `evolveNote` gives it) names `<note key>`; anything else names none. Pure.
 */
export function archivedNoteKey(value: string): string | undefined {
  return /(?:^|\/)_archive\/(.+?\.md)\.\d{8}(?:-\d+)?\.md$/.exec(value.trim())?.[1];
}

/**
 * Live counts of the notes each key is superseded by. A note is superseded while at least one live
 * document names it; removing the last one makes it recallable again.
 *
 * A successor names its archive, not the note it replaced; that note is gone once the evolve finishes.
 * An evolve killed between its writes can leave both (renaming: the successor beside the old note), and
 * recall must not show two current versions: the note an archive was made from is hidden too, while it
 * is no newer than a live successor naming that archive (a note saved at that path later shows).
 */
export class SupersededKeys {
  readonly #counts = new Map<string, number>();
  /** Archived notes' keys → when each live successor naming one of their archives was last updated. */
  readonly #archived = new Map<string, number[]>();

  /** Records that a document (updated at `updatedMs`) names `value`; returns the keys it covers. */
  add(value: string, self: string, updatedMs = Number.POSITIVE_INFINITY): string[] {
    const keys = supersededKeys(value).filter((k) => k !== self);
    for (const k of keys) this.#counts.set(k, (this.#counts.get(k) ?? 0) + 1);
    const original = archivedNoteKey(value);
    if (original === undefined || original === self) return keys;
    const times = this.#archived.get(original);
    if (times) times.push(updatedMs);
    else this.#archived.set(original, [updatedMs]);
    return [...keys, original];
  }

  /** Forgets one document naming `value` (as `add` recorded it); returns the keys it covered. */
  remove(value: string, self: string, updatedMs = Number.POSITIVE_INFINITY): string[] {
    const keys = supersededKeys(value).filter((k) => k !== self);
    for (const k of keys) {
      const n = (this.#counts.get(k) ?? 0) - 1;
      if (n > 0) this.#counts.set(k, n);
      else this.#counts.delete(k);
    }
    const original = archivedNoteKey(value);
    if (original === undefined || original === self) return keys;
    const times = this.#archived.get(original) ?? [];
    const at = times.indexOf(updatedMs);
    if (at >= 0) times.splice(at, 1);
    if (times.length === 0) this.#archived.delete(original);
    return [...keys, original];
  }

  has(key: string): boolean {
    return this.#counts.has(key);
  }

  /** Whether the note `key`, last updated at `updatedMs`, is kept from recall (see the class comment). */
  hides(key: string, updatedMs: number): boolean {
    return this.#counts.has(key) || (this.#archived.get(key)?.some((t) => updatedMs <= t) ?? false);
  }

  get size(): number {
    return this.#counts.size + this.#archived.size;
  }
}

/** Longest derived id, in characters. */
export const STEP_ID_MAX = 48;

/**
 * The id a step gets from its title when it has no `[id:: …]`: lower-cased letters and digits (any
 * script) joined by single dashes, at most 48 characters, `step` when nothing is left. Pure and stable:
 * the same title always gives the same id.
 */
export function slugifyTitle(title: string): string {
  const slug = title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  const cut = [...slug].slice(0, STEP_ID_MAX).join('').replace(/-+$/, '');
  return cut === '' ? 'step' : cut;
}

/**
 * Ids for a plan's steps in document order: an explicit id is kept as written; a missing one is derived
 * from the title and, if that is already taken (by any explicit id, or an earlier derived one),
 * suffixed `-2`, `-3`, …. The reconciler writes a derived id into the line on its first transition, so it
 * stays stable after the plan is edited.
 */
export function assignStepIds(
  items: ReadonlyArray<{ readonly explicitId?: string; readonly title: string }>,
): string[] {
  const taken = new Set(items.map((i) => i.explicitId).filter((id): id is string => id !== undefined && id !== ''));
  const suffixes = new SuffixCounter(taken);
  return items.map((item) => (item.explicitId ? item.explicitId : suffixes.claim(slugifyTitle(item.title))));
}

/**
 * Hands out `base`, `base-2`, `base-3`, … skipping names already taken, in amortized constant time:
 * per base it remembers the next suffix to try (every lower one was taken, and `taken` only grows), so
 * 8 000 identical titles cost 8 000 steps rather than 32 million.
 */
export class SuffixCounter {
  readonly #next = new Map<string, number>();
  constructor(private readonly taken: Set<string>) {}

  claim(base: string): string {
    let id = base;
    let n = this.#next.get(base) ?? 2;
    if (this.taken.has(id)) {
      while (this.taken.has(`${base}-${n}`)) n++;
      id = `${base}-${n}`;
      n++;
    }
    this.#next.set(base, n);
    this.taken.add(id);
    return id;
  }
}

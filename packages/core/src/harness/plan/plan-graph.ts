/**
 * The id of a step on a dependency cycle (the first one a depth-first walk in input order lands on
 * again), or undefined when the dependency graph is acyclic. Unknown dependency ids are ignored here.
 */
export function findCycle(
  steps: ReadonlyArray<{ readonly id: string; readonly deps: readonly string[] }>,
): string | undefined {
  const deps = new Map<string, readonly string[]>();
  for (const s of steps) if (!deps.has(s.id)) deps.set(s.id, s.deps);
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (id: string): string | undefined => {
    state.set(id, 'visiting');
    for (const dep of deps.get(id) ?? []) {
      if (!deps.has(dep)) continue;
      const s = state.get(dep);
      if (s === 'visiting') return dep;
      if (s === undefined) {
        const found = visit(dep);
        if (found !== undefined) return found;
      }
    }
    state.set(id, 'done');
    return undefined;
  };
  for (const id of deps.keys()) {
    if (state.get(id) === undefined) {
      const found = visit(id);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Depth of each step in its DAG: 0 with no known dependencies, else 1 + the deepest known dependency.
 * Steps of equal depth form a "wave" that becomes ready together. A node re-entered while being resolved
 * counts 0 (a cycle guard, as in memQL).
 */
export function stepDepths(
  steps: ReadonlyArray<{ readonly id: string; readonly deps: readonly string[] }>,
): Map<string, number> {
  const deps = new Map<string, readonly string[]>();
  for (const s of steps) deps.set(s.id, s.deps);
  const depth = new Map<string, number>();
  const resolving = new Set<string>();
  const resolve = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (resolving.has(id)) return 0;
    resolving.add(id);
    let d = 0;
    for (const dep of deps.get(id) ?? []) if (deps.has(dep)) d = Math.max(d, 1 + resolve(dep));
    resolving.delete(id);
    depth.set(id, d);
    return d;
  };
  for (const s of steps) resolve(s.id);
  return depth;
}

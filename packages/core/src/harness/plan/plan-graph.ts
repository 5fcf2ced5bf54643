/*
 * Graph walks over step dependencies. Each uses an explicit stack, not recursion: a plan (or a model's
 * answer) with a 10 000-step chain once overflowed the call stack.
 */

type DepGraph = ReadonlyArray<{ readonly id: string; readonly deps: readonly string[] }>;

/**
 * A depth-first walk from each root in input order, over known dependencies only. Calls `onBackEdge`
 * with the step a walk lands on again while it is still on the walk's path; stops when it returns true.
 */
export function walkForCycle(
  roots: Iterable<string>,
  depsOf: (id: string) => readonly string[] | undefined,
  onBackEdge: (id: string) => boolean,
): void {
  const state = new Map<string, 'visiting' | 'done'>();
  for (const root of roots) {
    if (state.has(root)) continue;
    state.set(root, 'visiting');
    const stack: Array<{ id: string; next: number }> = [{ id: root, next: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const deps = depsOf(frame.id) ?? [];
      if (frame.next >= deps.length) {
        state.set(frame.id, 'done');
        stack.pop();
        continue;
      }
      const dep = deps[frame.next++]!;
      if (depsOf(dep) === undefined) continue;
      const s = state.get(dep);
      if (s === 'visiting') {
        if (onBackEdge(dep)) return;
      } else if (s === undefined) {
        state.set(dep, 'visiting');
        stack.push({ id: dep, next: 0 });
      }
    }
  }
}

/**
 * The id of a step on a dependency cycle (the first one a depth-first walk in input order lands on
 * again), or undefined when the dependency graph is acyclic. Unknown dependency ids are ignored here.
 */
export function findCycle(steps: DepGraph): string | undefined {
  const deps = new Map<string, readonly string[]>();
  for (const s of steps) if (!deps.has(s.id)) deps.set(s.id, s.deps);
  let found: string | undefined;
  walkForCycle(
    deps.keys(),
    (id) => deps.get(id),
    (id) => {
      found = id;
      return true;
    },
  );
  return found;
}

/**
 * Depth of each step in its DAG: 0 with no known dependencies, else 1 + the deepest known dependency.
 * Steps of equal depth form a "wave" that becomes ready together. A node re-entered while being resolved
 * counts 0 (a cycle guard, as in memQL).
 */
export function stepDepths(steps: DepGraph): Map<string, number> {
  const deps = new Map<string, readonly string[]>();
  for (const s of steps) deps.set(s.id, s.deps);
  const depth = new Map<string, number>();
  const resolving = new Set<string>();
  for (const s of steps) {
    if (depth.has(s.id)) continue;
    resolving.add(s.id);
    const stack: Array<{ id: string; next: number; d: number }> = [{ id: s.id, next: 0, d: 0 }];
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const list = deps.get(frame.id) ?? [];
      if (frame.next >= list.length) {
        stack.pop();
        resolving.delete(frame.id);
        depth.set(frame.id, frame.d);
        const caller = stack[stack.length - 1];
        if (caller) caller.d = Math.max(caller.d, 1 + frame.d);
        continue;
      }
      const dep = list[frame.next++]!;
      if (!deps.has(dep)) continue;
      const known = depth.get(dep);
      if (known !== undefined) frame.d = Math.max(frame.d, 1 + known);
      else if (resolving.has(dep)) frame.d = Math.max(frame.d, 1);
      else {
        resolving.add(dep);
        stack.push({ id: dep, next: 0, d: 0 });
      }
    }
  }
  return depth;
}

/**
 * The ids of the steps that depend, directly or through others, on a step `isDead` says will never
 * finish (failed, cancelled): they would wait forever. Breadth-first over the reverse edges, so its
 * depth costs no call stack. Unknown dependency ids are ignored.
 */
export function dependentsOf(steps: DepGraph, isDead: (id: string) => boolean): Set<string> {
  const dependents = new Map<string, string[]>();
  for (const s of steps)
    for (const dep of s.deps) {
      const list = dependents.get(dep);
      if (list) list.push(s.id);
      else dependents.set(dep, [s.id]);
    }
  const doomed = new Set<string>();
  const queue = steps.filter((s) => isDead(s.id)).map((s) => s.id);
  for (let i = 0; i < queue.length; i++)
    for (const next of dependents.get(queue[i]!) ?? [])
      if (!doomed.has(next)) {
        doomed.add(next);
        queue.push(next);
      }
  return doomed;
}

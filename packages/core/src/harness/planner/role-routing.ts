import type { Role } from '../tools/roles.js';
import { truncateText } from './dag.js';

/** Route ≥ 0.82 (clear match), upgrade ≥ 0.60 (same domain, tool gap), else provision; merge roles ≥ 0.90. */
export interface RouteThresholds {
  readonly route: number;
  readonly upgrade: number;
  readonly dedup: number;
}

export const DEFAULT_THRESHOLDS: RouteThresholds = Object.freeze({ route: 0.82, upgrade: 0.6, dedup: 0.9 });

/** Each value outside (0, 1] becomes its default; then upgrade is capped at route. */
export function withDefaults(t: Partial<RouteThresholds> = {}): RouteThresholds {
  const pick = (v: number | undefined, d: number) => (v === undefined || !(v > 0) || v > 1 ? d : v);
  const route = pick(t.route, DEFAULT_THRESHOLDS.route);
  const upgrade = Math.min(pick(t.upgrade, DEFAULT_THRESHOLDS.upgrade), route);
  return { route, upgrade, dedup: pick(t.dedup, DEFAULT_THRESHOLDS.dedup) };
}

/** How well one role fits. */
export interface Fit {
  readonly role: string;
  readonly score: number;
}

/** The highest score; ties keep the first; empty → undefined. */
export function bestFit(fits: readonly Fit[]): Fit | undefined {
  let best: Fit | undefined;
  for (const f of fits) if (!best || f.score > best.score) best = f;
  return best;
}

const f2 = (n: number) => n.toFixed(2);

export interface RouteDecision {
  readonly action: 'route' | 'upgrade' | 'provision';
  readonly score: number;
  readonly role?: string;
  readonly rationale: string;
}

/** memQL `DecideRoute`. */
export function decideRoute(fits: readonly Fit[], thresholds: RouteThresholds = DEFAULT_THRESHOLDS): RouteDecision {
  const best = bestFit(fits);
  if (!best) return { action: 'provision', score: 0, rationale: 'no existing agents -- provisioning a new specialist' };
  if (best.score >= thresholds.route)
    return {
      action: 'route',
      score: best.score,
      role: best.role,
      rationale: `agent ${best.role} fits (${f2(best.score)} >= route ${f2(thresholds.route)})`,
    };
  if (best.score >= thresholds.upgrade) {
    return {
      action: 'upgrade',
      score: best.score,
      role: best.role,
      rationale: `agent ${best.role} partial fit (${f2(best.score)} in [${f2(thresholds.upgrade)},${f2(thresholds.route)})) -- upgrading`,
    };
  }
  return {
    action: 'provision',
    score: best.score,
    rationale: `best fit too low (${f2(best.score)} < upgrade ${f2(thresholds.upgrade)}) -- provisioning a new specialist`,
  };
}

export interface DedupDecision {
  readonly action: 'merge' | 'keep';
  readonly score: number;
  readonly role?: string;
  readonly rationale: string;
}

/** memQL `DecideDedup`: a new specialist too close to an existing role is merged into it. */
export function decideDedup(fits: readonly Fit[], thresholds: RouteThresholds = DEFAULT_THRESHOLDS): DedupDecision {
  const best = bestFit(fits);
  if (!best) return { action: 'keep', score: 0, rationale: 'no existing agents -- keeping new agent' };
  if (best.score >= thresholds.dedup)
    return {
      action: 'merge',
      score: best.score,
      role: best.role,
      rationale: `near-duplicate of agent ${best.role} (${f2(best.score)} >= dedup ${f2(thresholds.dedup)}) -- merging to avoid sprawl`,
    };
  return {
    action: 'keep',
    score: best.score,
    rationale: `distinct enough from roster (best ${f2(best.score)} < dedup ${f2(thresholds.dedup)}) -- keeping new agent`,
  };
}

const byteSorted = (xs: readonly string[]) => [...xs].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

/** `role: <slug>`, then the description, `knowledge: …` and `tools: …` (both byte-sorted) when present. */
export function agentCapabilityText(
  slug: string,
  description: string,
  domains: readonly string[],
  tools: readonly string[],
): string {
  let text = `role: ${slug.trim()}`;
  if (description.trim() !== '') text += `\n${description.trim()}`;
  if (domains.length > 0) text += `\nknowledge: ${byteSorted(domains).join(', ')}`;
  if (tools.length > 0) text += `\ntools: ${byteSorted(tools).join(', ')}`;
  return text;
}

export function roleCapabilityText(role: Role): string {
  return agentCapabilityText(role.slug, role.description, role.domains, role.tools);
}

/** A step's capability text: the title, plus the goal on a second line when it says more. */
export function stepCapabilityText(title: string, goal: string): string {
  const t = title.trim();
  const g = goal.trim();
  return g === '' || g === t ? t : `${t}\n${g}`;
}

function dedupe(xs: readonly string[]): string[] {
  const out: string[] = [];
  for (const x of xs) {
    const t = x.trim();
    if (t !== '' && !out.includes(t)) out.push(t);
  }
  return out;
}

/** What a role would add to an existing one: domains and tools it lacks (role order, deduped). */
export function computeUpgradeGap(
  role: Role,
  currentDomains: readonly string[],
  currentTools: readonly string[],
): { addDomains: string[]; addTools: string[] } {
  const have = (xs: readonly string[]) => new Set(xs.map((x) => x.trim()));
  const d = have(currentDomains);
  const t = have(currentTools);
  return {
    addDomains: dedupe(role.domains).filter((x) => !d.has(x)),
    addTools: dedupe(role.tools).filter((x) => !t.has(x)),
  };
}

/** The current list (deduped) followed by additions not already present. */
export function mergeCapabilities(current: readonly string[], add: readonly string[]): string[] {
  return dedupe([...current, ...add]);
}

/** A specialist composed from a seed role for one step (memQL `ComposeAgent`). */
export function composeAgent(
  role: Role,
  stepTitle: string,
  stepGoal: string,
): { name: string; capabilityText: string; goal: string } {
  const goal = stepGoal.trim() || stepTitle.trim();
  const title = stepTitle.trim();
  const name = title === '' ? role.name : `${role.name}: ${truncateText(title, 48)}`;
  return {
    name,
    goal,
    capabilityText: agentCapabilityText(role.slug, role.description, dedupe(role.domains), dedupe(role.tools)),
  };
}

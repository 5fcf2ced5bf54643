import type { ChatProvider } from '../../providers/chat.js';
import { NO_PROVIDER_HINT } from '../../providers/settings.js';
import { HarnessError } from '../errors.js';
import { makeObservation, type Observation } from '../observations/observation.js';
import type { RetryPolicy } from '../inner-loop/retry.js';
import { defaultStepKey } from '../reconciler/reconciler.js';
import { planObservationId, type PlanFiles } from '../reconciler/plan-files.js';
import { pickSeedRole, SEED_ROLES, type Role } from '../tools/roles.js';
import { singleStepFallback, validateDecompose, type DecomposedStep } from './dag.js';
import { decomposeGoal } from './decompose.js';
import { idsForKeys, renderPlan, type PlannedStep } from './plan-render.js';
import {
  composeAgent,
  computeUpgradeGap,
  decideDedup,
  mergeCapabilities,
  decideRoute,
  roleCapabilityText,
  stepCapabilityText,
  withDefaults,
  type RouteThresholds,
} from './role-routing.js';
import { lexicalScorer, type SimilarityScorer } from '../../memory/similarity.js';

export const PLANNER_ACTOR = 'planner';

export interface PlannerOptions {
  /** Decomposes the goal; without one the plan is a single step. */
  readonly provider?: ChatProvider | undefined;
  /** Capability similarity (default: lexical cosine, offline). */
  readonly scorer?: SimilarityScorer;
  /** The roster steps are routed to (default: researcher, builder, operator). */
  readonly roles?: readonly Role[];
  readonly thresholds?: Partial<RouteThresholds>;
  readonly retry?: RetryPolicy;
  readonly now?: () => Date;
}

export interface PlanDraft {
  readonly goal: string;
  readonly steps: readonly (PlannedStep & {
    readonly action: string;
    readonly score: number;
    readonly rationale: string;
  })[];
  /** Why the single-step fallback was used, when it was. */
  readonly fallbackReason?: string;
  /** The PLAN file's text. */
  readonly text: string;
  /** The planner's decisions, for the progress log. */
  readonly observations: readonly Observation[];
}

/**
 * Plans a goal (memQL §6.9 on Markdown): decompose through the chat provider, validate the DAG, fall back
 * to a single step on any failure (no provider, model error, malformed or invalid output), route each
 * step to a role by capability similarity (route / upgrade / provision with merge), record every
 * decision, and render the PLAN file. Pure apart from the model call; writes nothing.
 */
export async function planGoal(goal: string, planName: string, options: PlannerOptions = {}): Promise<PlanDraft> {
  const g = goal.trim();
  if (g === '')
    throw new HarnessError(
      'plan: empty goal; say what the plan should achieve, e.g. agentm plan "add a --json flag to trace"',
      { code: 'EPLANGOAL' },
    );
  const roles = options.roles && options.roles.length > 0 ? options.roles : SEED_ROLES;
  const now = options.now ?? (() => new Date());
  const scorer = options.scorer ?? lexicalScorer;
  const thresholds = withDefaults(options.thresholds);
  const obs = (
    step: string,
    kind: 'decision' | 'note',
    text: string,
    data: Record<string, string | number | undefined> = {},
  ) => makeObservation({ kind, step, actor: PLANNER_ACTOR, text, data, time: now() });
  const planId = planObservationId({ name: planName });
  const observations: Observation[] = [];

  let decomposed: DecomposedStep[];
  let fallbackReason: string | undefined;
  try {
    if (!options.provider) throw new HarnessError(NO_PROVIDER_HINT);
    decomposed = validateDecompose(await decomposeGoal(options.provider, g, roles, options.retry));
  } catch (error) {
    fallbackReason = (error as Error).message;
    decomposed = singleStepFallback(g);
  }
  observations.push(
    fallbackReason
      ? obs(planId, 'decision', `plan as a single step: ${fallbackReason}`, {
          choice: 'single_step_fallback',
          rationale: fallbackReason,
        })
      : obs(planId, 'decision', `decomposed the goal into ${decomposed.length} step(s)`, {
          choice: 'decompose',
          steps: decomposed.length,
          model: options.provider?.name,
        }),
  );

  const ids = idsForKeys(decomposed.map((s) => s.key));
  const rosterTexts = roles.map(roleCapabilityText);
  const steps: Array<PlanDraft['steps'][number]> = [];
  for (const s of decomposed) {
    const id = ids.get(s.key)!;
    const text = stepCapabilityText(s.title, s.goal);
    const fits = (await scorer.scores(text, rosterTexts).catch(() => [])).map((score, i) => ({
      role: roles[i]!.slug,
      score,
    }));
    const route = decideRoute(fits, thresholds);
    let role: string;
    let upgrade: { domains: string[]; tools: string[] } | undefined;
    let rationale = route.rationale;
    const data: Record<string, string | number | undefined> = {
      choice: route.action,
      fit_score: Number(route.score.toFixed(4)),
      candidate: route.role,
    };
    if (route.action === 'route') role = route.role!;
    else if (route.action === 'upgrade') {
      role = route.role!;
      const current = roles.find((r) => r.slug === role)!;
      const gap = computeUpgradeGap(pickSeedRole(s.roleHint, text, roles), current.domains, current.tools);
      data['gap_tools'] = gap.addTools.join(', ') || undefined;
      data['gap_domains'] = gap.addDomains.join(', ') || undefined;
      // Applied, not only logged (memQL writes the merged capabilities to the agent): here the step's
      // role gains what it lacks, for this step only; the roster in the config is the user's and is not
      // rewritten.
      if (gap.addDomains.length > 0 || gap.addTools.length > 0) {
        upgrade = {
          domains: mergeCapabilities(current.domains, gap.addDomains),
          tools: mergeCapabilities(current.tools, gap.addTools),
        };
        const gains = [
          gap.addDomains.length > 0 ? `domains ${gap.addDomains.join(', ')}` : '',
          gap.addTools.length > 0 ? `tools ${gap.addTools.join(', ')}` : '',
        ].filter(Boolean);
        rationale = `${rationale}; ${role} gains ${gains.join(' and ')} for this step`;
        data['upgraded_domains'] = upgrade.domains.join(', ');
        data['upgraded_tools'] = upgrade.tools.join(', ');
      }
    } else {
      const seed = pickSeedRole(s.roleHint, text, roles);
      const composed = composeAgent(seed, s.title, s.goal);
      const dedupFits = (await scorer.scores(composed.capabilityText, rosterTexts).catch(() => [])).map((score, i) => ({
        role: roles[i]!.slug,
        score,
      }));
      const dedup = decideDedup(dedupFits, thresholds);
      role = dedup.action === 'merge' ? dedup.role! : seed.slug;
      rationale = `${route.rationale}; ${dedup.rationale}${dedup.action === 'keep' ? ` (specialist "${composed.name}" from seed role ${seed.slug})` : ''}`;
      data['dedup'] = dedup.action;
    }
    data['role'] = role;
    data['rationale'] = rationale;
    observations.push(obs(id, 'decision', `step ${id}: ${route.action} (${rationale})`, data));
    steps.push({
      ...s,
      id,
      dependsOn: s.dependsOn.map((d) => ids.get(d)!),
      role,
      ...(upgrade ? { domains: upgrade.domains, tools: upgrade.tools } : {}),
      stepKey: defaultStepKey(planName, id),
      action: route.action,
      score: route.score,
      rationale,
    });
  }
  const text = renderPlan(g, steps, now());
  return { goal: g, steps, ...(fallbackReason ? { fallbackReason } : {}), text, observations };
}

/** Writes a draft through the plan files: the plan must not exist yet (CAS expecting absent). */
export async function writePlanDraft(files: PlanFiles, draft: PlanDraft): Promise<void> {
  await files.commit({ plan: { text: draft.text, expectHash: null }, observations: draft.observations });
}

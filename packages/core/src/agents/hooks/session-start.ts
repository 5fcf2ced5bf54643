import { renderAlwaysLoad } from '../always-load.js';
import { conflictCopiesHere, conflictReportMode, formatConflictReport } from '../conflict-report.js';
import type { PlanListing } from '../../workspace/plan-listing.js';
import { additionalContextOutput } from './hook-io.js';
import { NO_ANSWER, type HookContext, type HookAnswer } from './hook-context.js';

/** The plan section: where the active plan and its progress log are, the other plans, a dangling binding. */
export function renderPlanSection(listing: PlanListing, project: string | undefined): string {
  const lines = [`## AgentM plan state${project ? ` · ${project}` : ''}`, ''];
  if (listing.active) {
    const bound = listing.binding ? ` (bound by .harness/active-plan: ${listing.binding})` : '';
    lines.push(`- Plan: ${listing.active.planFile}${bound}`, `- Progress: ${listing.active.progressFile}`);
    if (!listing.plans.some((p) => p.name === listing.active!.name))
      lines.push('- The plan file does not exist yet: create it before starting multi-step work.');
  } else {
    lines.push(`- No active plan: ${listing.bindingError ?? 'the .harness/active-plan marker does not resolve'}`);
  }
  const named = listing.plans.filter((p) => p.name !== 'PLAN').map((p) => p.name);
  if (named.length > 0) lines.push(`- Named plans (PLAN-<name>.md in ${listing.stateDir}): ${named.join(', ')}`);
  lines.push(
    '',
    'Read the plan before you start and log what you do in its progress file (the AgentM MCP tools read_plan, update_step and append_progress do both under the vault lock).',
  );
  return `${lines.join('\n')}\n`;
}

/** A part of the answer left out, what it is and how the agent gets it another way. */
interface Dropped {
  readonly what: string;
  readonly why: string;
  readonly instead: string;
}

/** What the agent is told of the parts left out (so that it knows to ask, not that there is nothing). */
export function renderDropped(dropped: readonly Dropped[]): string {
  const lines = ['## AgentM: left out of this session start', ''];
  for (const d of dropped) lines.push(`- ${d.what}: ${d.why}; ${d.instead}.`);
  return `${lines.join('\n')}\n`;
}

/**
 * SessionStart: the plan and progress paths of the project (named plans listed, a dangling
 * `.harness/active-plan` reported), the always-load memories, as context; sync conflict copies on
 * stderr (agentm's conflict-merger report). The parts run one after the other, cheapest and most needed
 * first, so that nothing competes with the plan state for the budget; the conflict copies come from the
 * memory index's folder listings (caught up from the folders that changed), a full scan only when the
 * index is not built yet. A part that is late or fails is left out whole, never cut, and the agent is told
 * which and how to get it (a line on stderr as well).
 */
export async function sessionStart(ctx: HookContext): Promise<HookAnswer> {
  const { ws, project } = ctx;
  const slug = project.slug;
  const mode = conflictReportMode(ctx.env);
  const dropped: Dropped[] = [];
  const part = async <T>(what: string, instead: string, work: () => Promise<T>): Promise<T | undefined> => {
    let why: string;
    try {
      const raced = await ctx.race(work());
      if (raced.done) return raced.value;
      why = 'not read within the session-start budget';
    } catch (error) {
      why = `could not be read (${(error as Error).message})`;
    }
    ctx.warn(`agentm: ${what} ${why}; left out`);
    dropped.push({ what, why, instead });
    return undefined;
  };
  const listing = await part('the plan state', 'read it with the read_plan tool, or run agentm plans', () =>
    ws.listPlans({ summaries: false }),
  );
  const always = await part('the always-load memories', 'recall them with agentm recall-here --phase setup', () =>
    renderAlwaysLoad(ws.backend, { memorySpace: ws.memorySpace, project: slug, env: ctx.env }),
  );
  const conflicts =
    mode === 'off'
      ? undefined
      : await part('the check for sync conflict copies', 'agentm reindex lists them', () => conflictCopiesHere(ws));
  const sections: string[] = [];
  if (listing) {
    if (listing.bindingError) ctx.warn(`agentm: ${listing.bindingError}`);
    // A repository that has never used AgentM (no project, no plan, no binding) gets no plan section.
    if (slug !== undefined || listing.plans.length > 0 || listing.binding !== undefined)
      sections.push(renderPlanSection(listing, slug));
  }
  if (always) sections.push(always);
  if (conflicts) {
    const report = formatConflictReport(conflicts, mode);
    if (report !== '') ctx.warn(report.trimEnd());
  }
  if (dropped.length > 0 && (slug !== undefined || sections.length > 0)) sections.push(renderDropped(dropped));
  if (sections.length === 0) return NO_ANSWER;
  return { stdout: additionalContextOutput('SessionStart', sections.join('\n')) };
}

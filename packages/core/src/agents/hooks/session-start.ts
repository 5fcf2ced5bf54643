import { renderAlwaysLoad } from '../always-load.js';
import { findConflictCopies } from '../../workspace/conflict-copies.js';
import { conflictReportMode, formatConflictReport } from '../conflict-report.js';
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

/**
 * SessionStart: the plan and progress paths of the project (named plans listed, a dangling
 * `.harness/active-plan` reported), the always-load memories, as context; sync conflict copies on
 * stderr (agentm's conflict-merger report). Each part is raced against the hook's deadline and left out
 * whole when it is late or fails (reported on stderr), never cut.
 */
export async function sessionStart(ctx: HookContext): Promise<HookAnswer> {
  const { ws, project } = ctx;
  const slug = project.slug;
  const mode = conflictReportMode(ctx.env);
  const part = async <T>(what: string, work: Promise<T>): Promise<T | undefined> => {
    try {
      const raced = await ctx.race(work);
      if (raced.done) return raced.value;
      ctx.warn(`agentm: ${what} not read within the session-start budget; left out`);
    } catch (error) {
      ctx.warn(`agentm: ${what} could not be read: ${(error as Error).message}`);
    }
    return undefined;
  };
  const [listing, always, conflicts] = await Promise.all([
    part('the plan state', ws.listPlans({ summaries: false })),
    part(
      'the always-load memories',
      renderAlwaysLoad(ws.backend, { memorySpace: ws.memorySpace, project: slug, env: ctx.env }),
    ),
    mode === 'off' ? undefined : part('the sync conflict copies', findConflictCopies(ws.backend, ws.layout)),
  ]);
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
  if (sections.length === 0) return NO_ANSWER;
  return { stdout: additionalContextOutput('SessionStart', sections.join('\n')) };
}

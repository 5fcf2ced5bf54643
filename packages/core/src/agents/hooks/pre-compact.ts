import { appendProgressNote } from '../../harness/reconciler/step-update.js';
import { NO_ANSWER, type HookAnswer, type HookContext } from './hook-context.js';

/** The actor Claude Code's hooks sign progress entries with. */
export const HOOK_ACTOR = 'claude-code';

/** The data field that marks a breadcrumb, so plan-done promotion does not promote it as progress. */
export const BREADCRUMB_EVENT = 'pre_compact';

/**
 * PreCompact: a timestamped breadcrumb in the active plan's progress log, appended under the lock with a
 * compare-and-swap (the path every progress write takes), so an agent whose context was just compacted
 * finds where it was. Only where AgentM state exists (a plan or a progress file): a repository that has
 * never used it gets no new file. A dangling plan binding is reported and nothing is written.
 */
export async function preCompact(ctx: HookContext): Promise<HookAnswer> {
  const { files } = await ctx.ws.planFiles();
  const [plan, progress] = await Promise.all([files.readPlan(), files.readProgress()]);
  if (!plan && progress === '') return NO_ANSWER;
  const trigger = ctx.payload.trigger === 'manual' || ctx.payload.trigger === 'auto' ? ctx.payload.trigger : 'unknown';
  const session = (ctx.payload.session_id ?? '').replace(/[^A-Za-z0-9-]/g, '').slice(0, 36);
  await appendProgressNote(
    files,
    HOOK_ACTOR,
    `breadcrumb: Claude Code compacted its context (${trigger})${session ? ` in session ${session}` : ''}; ` +
      'what the session knew is summarized from here on: re-read the plan and this log to continue.',
    { data: { event: BREADCRUMB_EVENT, trigger }, now: () => ctx.now().getTime() },
  );
  return NO_ANSWER;
}

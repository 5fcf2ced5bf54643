import { vaultPath } from '../../config/roots.js';
import { NoteExistsError } from '../../memory/notes/errors.js';
import { parsePlan } from '../../harness/plan/plan-document.js';
import { computePlanTerminal } from '../../harness/reconciler/core.js';
import { stepViews } from '../../harness/reconciler/plan-mutation.js';
import { systemMessageOutput } from './hook-io.js';
import { NO_ANSWER, type HookAnswer, type HookContext } from './hook-context.js';
import { confidenceThreshold, offerSave, type SaveCandidate } from './offer-save.js';
import {
  advancePromotionCursor,
  progressSince,
  promotionBody,
  promotionConfidence,
  promotionSlug,
  readPromotionCursor,
} from './plan-done-promotion.js';

/** Where a promoted plan is filed: a brief (what a finished piece of work was), tagged so it can be found. */
export const PROMOTION_KIND = 'brief';
export const PROMOTION_TAGS: readonly string[] = ['plan-done'];

/**
 * Stop: plan-done promotion. When the active plan is done (every step done or cancelled, or its status
 * says so), the progress written since `.harness/.promoted-progress-cursor` is offered for saving as a
 * project memory through agentm's offer-save modes: `HARNESS_AUTO_SAVE_MODE=silent` saves, `off` skips,
 * `ask` (the default) saves without asking when the plan's confidence (steps done among those settled)
 * reaches the threshold (0.8), else asks — and a hook's stdin is never a terminal, so it skips. The
 * cursor then moves past what was offered (compare-and-swap under the `.harness/` lock), so each piece
 * of progress is offered once. Nothing happens while the plan is still moving, without a project, or
 * without a vault (agentm's `plan_done_promotion`: no vault path, no promotion, the cursor untouched — a
 * brief filed in the device-local store would be found by no one, and `offer-save-here` offers nothing
 * there either; a vault configured later still gets the progress).
 */
export async function stop(ctx: HookContext): Promise<HookAnswer> {
  const slug = ctx.project.slug;
  if (slug === undefined) return NO_ANSWER;
  if ((await vaultPath(ctx.ws.host, ctx.ws.config)) === undefined) return NO_ANSWER;
  const { files, name } = await ctx.ws.planFiles();
  const plan = await files.readPlan();
  if (!plan) return NO_ANSWER;
  const doc = parsePlan(plan.text);
  if (computePlanTerminal(stepViews(doc)) !== 'done' && doc.meta.status !== 'done') return NO_ANSWER;
  const cursor = await readPromotionCursor(ctx.project.projectRoot);
  const since = progressSince(await files.readProgress(), cursor.offset);
  if (!since) return NO_ANSWER;
  const body = promotionBody(doc, name, since.text);
  let message = '';
  if (body !== undefined) {
    const { group } = await ctx.ws.noteFiling({ scope: 'project' });
    const candidate: SaveCandidate = {
      phase: 'work',
      project: slug,
      target: group,
      kind: PROMOTION_KIND,
      slug: promotionSlug(name, body),
      body,
      confidence: promotionConfidence(doc),
      reason: `plan ${name} is done`,
    };
    let saved: string | undefined;
    const outcome = await offerSave(candidate, {
      env: ctx.env,
      say: ctx.warn,
      confirm: ctx.confirm,
      save: async () => {
        try {
          const note = await ctx.ws.saveNote({
            kind: candidate.kind,
            slug: candidate.slug,
            body,
            tags: PROMOTION_TAGS,
            group,
          });
          saved = note.locator.key;
        } catch (error) {
          // The same promotion saved by a concurrent Stop, or by a run whose cursor write was lost.
          if (!(error instanceof NoteExistsError)) throw error;
          saved = error.locator;
        }
      },
    });
    const planLabel = name === 'PLAN' ? 'the plan' : `plan ${name}`;
    if (outcome === 'saved') message = `AgentM: ${planLabel} is done; its progress was saved as ${saved}.`;
    else if (outcome === 'skipped')
      message =
        `AgentM: ${planLabel} is done; its progress was not saved as a memory (confidence ` +
        `${candidate.confidence?.toFixed(2) ?? 'unknown'} is under ${confidenceThreshold(ctx.env).toFixed(2)} and no one was asked). ` +
        'Save it with /agentm:save, or set HARNESS_AUTO_SAVE_MODE=silent.';
  }
  await advancePromotionCursor(cursor, since.end, ctx.ws.lockRoot);
  return message === '' ? NO_ANSWER : { stdout: systemMessageOutput(message) };
}

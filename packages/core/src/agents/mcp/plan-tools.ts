import { isAbsolute, join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { PlanNotFoundError } from '../../harness/errors.js';
import { readPlanSummary } from '../../harness/reconciler/plan-view.js';
import { appendProgressNote, STEP_ACTIONS } from '../../harness/reconciler/step-update.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { McpContext } from './mcp-context.js';
import { planArg, textArg } from './schemas.js';
import { guarded, jsonResult } from './tool-result.js';

const stepArg = z.string().min(1).max(200).describe('The step id, as read_plan lists it.');

/** A plan file as a path the agent can open: a store label joined to the store's root when it has one. */
function shownPath(ws: Workspace, label: string): string {
  return isAbsolute(label) || ws.localRoot === undefined ? label : join(ws.localRoot, label);
}

/**
 * The plan half of the server: list and read plans, record a step's progress, log a note. Every write
 * is one compare-and-swap commit under the plan's lock (the path `agentm run` writes through); no tool
 * ever runs a step's `[cmd:: …]`: a plan is text from a synced vault, and running it is `agentm run`'s
 * job, with its own consent rules.
 */
export function registerPlanTools(server: McpServer, ctx: McpContext): void {
  const { ws } = ctx;
  const files = (plan: string | undefined) => ws.planFiles(plan);

  server.registerTool(
    'list_plans',
    {
      title: 'List plans',
      description:
        "List this repository's plans (PLAN.md and PLAN-<name>.md, kept in the vault or in .harness/) with each one's status and step counts, and which plan is active here " +
        '(a dangling .harness/active-plan binding is reported with how to fix it).',
      inputSchema: {},
      annotations: { title: 'List plans', readOnlyHint: true, openWorldHint: false },
    },
    () => guarded(ctx, async () => jsonResult(await ws.listPlans())),
  );

  server.registerTool(
    'read_plan',
    {
      title: 'Read a plan',
      description:
        'Read a plan: its goal and status, every step with its status (pending, ready, running, done, failed, blocked, cancelled), dependencies, attempt and the latest progress entry about it, ' +
        'and the most recent entries of its progress log. Read it before working on a plan and after a context compaction.',
      inputSchema: {
        plan: planArg.optional(),
        recent: z.number().int().min(0).max(100).optional().describe('How many recent progress entries (default 10).'),
      },
      annotations: { title: 'Read a plan', readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, async () => {
        const { files: plan } = await files(args.plan);
        const summary = await readPlanSummary(plan, { recent: args.recent ?? 10 });
        if (!summary) throw new PlanNotFoundError(shownPath(ws, plan.planLabel));
        return jsonResult({
          ...summary,
          planFile: shownPath(ws, summary.planFile),
          progressFile: shownPath(ws, summary.progressFile),
        });
      }),
  );

  server.registerTool(
    'update_step',
    {
      title: 'Update a plan step',
      description:
        'Record progress on one step of a plan: start (ready → running, claimed by you), done (running → done; a ready step is started first), failed (with the reason), or note (a progress entry about the step, no status change). ' +
        'The step state machine is enforced (a step whose dependencies are not done cannot start; done is final) and the change is logged in the progress file. ' +
        'This records what you did; it never runs the step.',
      inputSchema: z
        .object({
          plan: planArg.optional(),
          step: stepArg,
          action: z.enum(STEP_ACTIONS).describe('start, done, failed or note.'),
          text: textArg(20_000)
            .optional()
            .describe(
              'For failed: the reason (required). For note: the note (required). For start and done: an optional note.',
            ),
        })
        .superRefine((args, issues) => {
          if ((args.action === 'failed' || args.action === 'note') && (args.text ?? '').trim() === '')
            issues.addIssue({
              code: 'custom',
              path: ['text'],
              message: args.action === 'failed' ? 'failed needs the reason in text' : 'note needs the note in text',
            });
        }),
      annotations: {
        title: 'Update a plan step',
        readOnlyHint: false,
        // A status change rewrites only the step's own line, and the move is appended to the progress
        // log: nothing anyone wrote is lost.
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) =>
      guarded(ctx, async () => {
        const update = { plan: args.plan, step: args.step, action: args.action, text: args.text };
        const result = await ws.updateStep(update, { actor: ctx.actor() });
        return jsonResult({
          plan: result.plan,
          step: args.step,
          status: result.status,
          transitions: result.applied.map((t) => `${t.from} → ${t.to}`),
          ...(result.planStatus ? { plan_status: result.planStatus } : {}),
          progress_file: shownPath(ws, result.files.progressLabel),
        });
      }),
  );

  server.registerTool(
    'append_progress',
    {
      title: 'Append a progress note',
      description:
        "Append a note to a plan's progress log (the plan's own log, or about one step when you name it): what you found, decided or did, so a later session or a person can follow. " +
        'Timestamped and signed; the log is only ever appended to.',
      inputSchema: {
        plan: planArg.optional(),
        text: z.string().min(1).max(20_000).describe('The note, in Markdown.'),
        step: stepArg.optional().describe('The step the note is about (default: the plan as a whole).'),
      },
      annotations: {
        title: 'Append a progress note',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) =>
      guarded(ctx, async () => {
        const { files: plan, name } = await files(args.plan);
        const entry = await appendProgressNote(plan, ctx.actor(), args.text, { step: args.step });
        return jsonResult({
          plan: name,
          appended: entry.time,
          step: entry.step,
          progress_file: shownPath(ws, plan.progressLabel),
        });
      }),
  );
}

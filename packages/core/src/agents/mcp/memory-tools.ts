import { join } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { PHASES } from '../../memory/recall/budget.js';
import { parseDurationMs } from '../../memory/recall/duration.js';
import { requireRecallText } from '../../memory/recall/recall-text.js';
import type { Workspace } from '../../workspace/workspace.js';
import { withFreshIndex, type McpContext } from './mcp-context.js';
import { durationArg, groupArg, nameArg, textArg } from './schemas.js';
import { noteUri } from './resource-uris.js';
import { guarded, jsonResult, textResult } from './tool-result.js';

function fileOf(ws: Workspace, key: string): string | undefined {
  return ws.localRoot === undefined ? undefined : join(ws.localRoot, key);
}

/** recall, session_context, save, evolve: the memory half of the server. */
export function registerMemoryTools(server: McpServer, ctx: McpContext): void {
  const { ws } = ctx;

  server.registerTool(
    'recall',
    {
      title: 'Recall memories',
      description:
        'Search the durable memories AgentM keeps in the user\'s Obsidian vault: conventions, fixes, workflows, preferences, references, beliefs and past progress entries ("episodes"). ' +
        "Scoped to this repository's project plus global notes unless you name another project or ask for all. " +
        'Ranked by relevance to the query blended with recency. Use it before deciding how to do something the user or an earlier session may already have settled. ' +
        'Each result has its store path (pass it to evolve, or read it as the resource agentm://note/<path>).',
      inputSchema: {
        query: textArg(4000).describe(
          'What to look for, in words (required; for the memories of this context without a query, use session_context).',
        ),
        project: z
          .string()
          .min(1)
          .max(200)
          .optional()
          .describe("Another project's slug (its notes plus global ones). Default: this repository's project."),
        all_projects: z.boolean().optional().describe('Search every project, not only one.'),
        kinds: z
          .array(nameArg('a kind', 'fix'))
          .max(20)
          .optional()
          .describe('Only these kinds, e.g. ["fix", "convention", "episode"].'),
        k: z.number().int().min(1).max(50).optional().describe('How many results (default 10).'),
        window: durationArg.optional().describe('Only memories updated within this time, e.g. 7d.'),
      },
      annotations: { title: 'Recall memories', readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, async () => {
        const text = requireRecallText(args.query);
        const project = args.all_projects ? undefined : (args.project ?? (await ctx.project()).slug);
        const result = await withFreshIndex(ctx, (refresh) =>
          ws.recall(
            {
              text,
              project,
              k: args.k ?? 10,
              kinds: args.kinds,
              window: args.window === undefined ? undefined : parseDurationMs(args.window),
            },
            { refresh },
          ),
        );
        return jsonResult({
          project: project ?? null,
          mode: result.mode,
          warnings: result.warnings,
          items: result.items.map((i) => ({
            title: i.title,
            kind: i.kind,
            path: i.locator,
            ...(fileOf(ws, i.locator) ? { file: fileOf(ws, i.locator) } : {}),
            project: i.owner === '' ? null : i.owner,
            snippet: i.snippet,
            tags: i.tags,
            always_load: i.alwaysLoad,
            updated: new Date(i.updatedMs).toISOString(),
            score: Number(i.score.toFixed(4)),
            similarity: Number(i.similarity.toFixed(4)),
            recency: Number(i.recency.toFixed(4)),
          })),
        });
      }),
  );

  server.registerTool(
    'session_context',
    {
      title: 'Session context for a phase',
      description:
        "What AgentM would put in front of an agent starting a phase of work in this repository: the always-load notes, then the project's memories most useful for the phase " +
        "(ranked for the query when given), as Markdown within the phase's token budget. The same text as `agentm recall-here`. Empty when the repository has no AgentM project.",
      inputSchema: {
        phase: z.enum(PHASES).optional().describe('The phase of work (default work).'),
        query: textArg(4000).optional().describe('Rank the memories for this text (default: recency and the phase).'),
        limit_tokens: z
          .number()
          .int()
          .min(100)
          .max(200_000)
          .optional()
          .describe("The budget in tokens (default: the phase's, e.g. 6000 for work)."),
      },
      annotations: { title: 'Session context', readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      guarded(ctx, async () => {
        const slug = (await ctx.project()).slug;
        if (slug === undefined)
          return textResult(
            'No AgentM project in this repository, so no memories to give: set vault_project in .harness/project.json (or give it a git origin) to give it one.',
          );
        ctx.freshness.takeRefresh(); // phase recall always brings the index up to date first
        const result = await ws.phaseRecall({
          phase: args.phase,
          project: slug,
          query: args.query,
          limit: args.limit_tokens,
        });
        const notes = result.warnings.map((w) => `> warning: ${w}`).join('\n');
        return textResult(
          [result.markdown || '(no memories for this project yet)', notes].filter(Boolean).join('\n\n'),
        );
      }),
  );

  server.registerTool(
    'save',
    {
      title: 'Save a memory',
      description:
        "Save a new memory note in AgentM's vault (agentm's note format, readable in Obsidian). Save what a later session should know: a convention the user asked for, a fix that worked, a workflow, a preference, a reference. " +
        "Filed under this repository's project folder (scope project, the default; a global note when the repository has no project), or with every project's notes (scope global), or in the group you give. Never overwrites: an existing kind/slug is refused (use evolve to supersede it). " +
        'Kinds: preference, convention, reference, workflow, fix, idea (and decision, filed as convention), or a record kind such as brief, design, capture.',
      inputSchema: {
        kind: nameArg('kind', 'convention').describe('The kind of memory, e.g. convention, fix, workflow, preference.'),
        slug: nameArg('slug', 'pick-stdlib').describe('A short name for the file, lower-case words joined by hyphens.'),
        body: z.string().min(1).max(1_000_000).describe('The memory itself, in Markdown.'),
        tags: z.array(nameArg('a tag', 'build-tools')).max(30).optional(),
        scope: z
          .enum(['project', 'global'])
          .optional()
          .describe(
            "project (default): this repository's project, found first by recall here; global: every project's notes.",
          ),
        group: groupArg.optional().describe('A folder group instead of the scope, e.g. desk/projects/<another slug>.'),
        always_load: z.boolean().optional().describe('Give it to every session at start (use sparingly).'),
      },
      annotations: {
        title: 'Save a memory',
        readOnlyHint: false,
        destructiveHint: false,
        // Repeating a save adds nothing: the second is refused because the note exists.
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    (args) =>
      guarded(ctx, async () => {
        const note = await ws.saveNote({
          kind: args.kind,
          slug: args.slug,
          body: args.body,
          tags: args.tags ?? [],
          alwaysLoad: args.always_load === true,
          ...(args.scope !== undefined ? { scope: args.scope } : {}),
          ...(args.group !== undefined ? { group: args.group } : {}),
        });
        ctx.freshness.markStale();
        const key = note.locator.key;
        const { filing } = note;
        return jsonResult({
          saved: key,
          ...(fileOf(ws, key) ? { file: fileOf(ws, key) } : {}),
          uri: noteUri(key),
          scope: filing.scope,
          ...(filing.project !== undefined ? { project: filing.project } : {}),
        });
      }),
  );

  server.registerTool(
    'evolve',
    {
      title: 'Supersede a memory',
      description:
        'Replace an active memory note with a new body when what it says is no longer true or can be said better. The old version is archived (marked superseded, with your reason) and the note records what it supersedes; nothing is deleted. ' +
        'Give the note by the path recall or save returned.',
      inputSchema: {
        path: z.string().min(1).max(1000).describe('The note, e.g. desk/projects/agentm/convention/pick-stdlib.md.'),
        body: z.string().min(1).max(1_000_000).describe('The new body, in Markdown.'),
        reason: z.string().min(1).max(2000).describe('Why the old version is superseded.'),
        new_slug: nameArg('new_slug', 'pick-stdlib-v2').optional().describe('Rename the note (same folder).'),
      },
      annotations: {
        title: 'Supersede a memory',
        readOnlyHint: false,
        // The note is rewritten in place (its old text moves to the archive): not a purely additive change.
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args) =>
      guarded(ctx, async () => {
        const evolved = await ws.evolveNote({
          locator: ws.backend.resolve(ws.storeKey(args.path)),
          body: args.body,
          reason: args.reason,
          ...(args.new_slug !== undefined ? { newSlug: args.new_slug } : {}),
        });
        ctx.freshness.markStale();
        const key = evolved.note.locator.key;
        return jsonResult({ note: key, uri: noteUri(key), archived: evolved.archive.key });
      }),
  );
}

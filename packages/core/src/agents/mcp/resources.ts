import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InvalidLocatorError } from '../../seam/errors.js';
import { EPISODE_KIND } from '../../memory/documents/document.js';
import { classifySource, type MemoryLayout } from '../../memory/documents/layout.js';
import { PlanNotFoundError } from '../../harness/errors.js';
import { normalizePlanName, planPair } from '../../state/plan-names.js';
import { readStateFile } from '../../state/state-files.js';
import { withFreshIndex, type McpContext } from './mcp-context.js';
import {
  decodeUriPart,
  NOTE_TEMPLATE,
  noteUri,
  PLAN_TEMPLATE,
  planUri,
  PROGRESS_TEMPLATE,
  progressUri,
} from './resource-uris.js';

/** Notes listed as resources (the most recently updated); any note can still be read by its URI. */
export const LISTED_NOTES = 500;

/**
 * Whether a store key names a memory note a client may read: a note of the memory or projects spaces,
 * or an archived or captured one. Plan state, the registry and anything else in the store are not
 * notes (plans have their own URIs).
 */
export function isNoteKey(key: string, layout: MemoryLayout): boolean {
  if (!key.toLowerCase().endsWith('.md')) return false;
  if (classifySource(key, layout).role === 'note') return true;
  const memory = `${layout.memorySpace}/`;
  return key.startsWith(`${memory}_archive/`) || key.startsWith(`${memory}_inbox/`);
}

/** Notes, plans and progress logs as resources (list and read). Reads stay inside the store root. */
export function registerResources(server: McpServer, ctx: McpContext): void {
  const { ws } = ctx;

  server.registerResource(
    'note',
    new ResourceTemplate(NOTE_TEMPLATE, {
      list: async () => {
        const index = await ws.index();
        await withFreshIndex(ctx, async (refresh) => (refresh ? index.refresh() : undefined));
        const notes = new Map<string, { title: string; kind: string; updatedMs: number }>();
        for (const doc of index.state.docs.values())
          if (doc.kind !== EPISODE_KIND && !notes.has(doc.locator)) notes.set(doc.locator, doc);
        const newest = [...notes.entries()].sort((a, b) => b[1].updatedMs - a[1].updatedMs).slice(0, LISTED_NOTES);
        return {
          resources: newest.map(([key, doc]) => ({
            uri: noteUri(key),
            name: key,
            title: doc.title,
            description: `${doc.kind} · updated ${new Date(doc.updatedMs).toISOString().slice(0, 10)}`,
            mimeType: 'text/markdown',
          })),
        };
      },
    }),
    {
      title: 'Memory note',
      description: `A memory note in the vault, by its store path (the ${LISTED_NOTES} most recently updated are listed).`,
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      const key = ws.backend.resolve(decodeUriPart(variables['path'])).key;
      if (!isNoteKey(key, ws.layout))
        throw new InvalidLocatorError(key, 'it is not a memory note (plans are agentm://plan/<name>)');
      return {
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await ws.backend.read(ws.backend.resolve(key)) }],
      };
    },
  );

  const stateFile = (which: 'plan' | 'progress') => async (uri: URL, variables: Record<string, string | string[]>) => {
    const name = decodeUriPart(variables['name']);
    const pair = planPair(normalizePlanName(name));
    const project = await ctx.project();
    const text = await readStateFile(project, which === 'plan' ? pair.plan : pair.progress);
    if (which === 'plan' && text === '') throw new PlanNotFoundError(pair.plan);
    return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
  };
  const listPlans = (which: 'plan' | 'progress') => async () => {
    const listing = await ctx.ws.listPlans({ summaries: false });
    return {
      resources: listing.plans.map((p) => ({
        uri: which === 'plan' ? planUri(p.name) : progressUri(p.name),
        name: which === 'plan' ? p.planFile : p.progressFile,
        title: `${which === 'plan' ? 'Plan' : 'Progress of'} ${p.name}`,
        mimeType: 'text/markdown',
      })),
    };
  };

  server.registerResource(
    'plan',
    new ResourceTemplate(PLAN_TEMPLATE, { list: listPlans('plan') }),
    {
      title: 'Plan',
      description:
        'A PLAN file of this repository (PLAN for PLAN.md, <name> for PLAN-<name>.md): the steps and their status.',
      mimeType: 'text/markdown',
    },
    stateFile('plan'),
  );

  server.registerResource(
    'progress',
    new ResourceTemplate(PROGRESS_TEMPLATE, { list: listPlans('progress') }),
    {
      title: 'Progress log',
      description: "A plan's progress log (what happened, step by step). Empty when nothing was logged yet.",
      mimeType: 'text/markdown',
    },
    stateFile('progress'),
  );
}

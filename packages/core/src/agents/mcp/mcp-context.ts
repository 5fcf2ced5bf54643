import type { RecallServiceHost } from '../../recall-service/server.js';
import type { ProjectResolution } from '../../routing/resolve-project.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { IndexFreshness } from './index-freshness.js';

/** What every tool and resource of the server reads: one workspace, kept for the life of the process. */
export interface McpContext {
  readonly ws: Workspace;
  readonly freshness: IndexFreshness;
  /** The signature of this server's writes: the client's self-reported name, reduced to a token. */
  actor(): string;
  /** The repository of the server's directory (always resolved: with or without a project slug). */
  project(): Promise<ProjectResolution>;
}

/**
 * Whether to refresh the index before this answer; marks it stale again when the answer then fails. A
 * refresh already under way (the recall socket's debounced one, another question's) ends first: its
 * mark was taken, so this answer would otherwise read the index from before the change that woke it.
 */
export async function withFreshIndex<T>(
  ctx: Pick<McpContext, 'freshness'>,
  work: (refresh: boolean) => Promise<T>,
): Promise<T> {
  // Let the watcher's events that arrived with this request be handled first: a request is read in the
  // same turn of the event loop as the file events of a write that came just before it.
  await new Promise((resolve) => setImmediate(resolve));
  await ctx.freshness.settled();
  const refresh = ctx.freshness.takeRefresh();
  const run = work(refresh);
  if (refresh) ctx.freshness.track(run);
  try {
    return await run;
  } catch (error) {
    if (refresh) ctx.freshness.failed();
    throw error;
  }
}

/**
 * What the recall socket's server needs from this process: the workspace's key for `version`, its
 * socket directory's inputs and index, and the store watcher's freshness (`withFreshIndex`).
 */
export function recallServiceHost(ctx: McpContext, version: string): RecallServiceHost {
  return {
    key: ctx.ws.recallServiceKey(version),
    env: ctx.ws.host.env as NodeJS.ProcessEnv,
    home: ctx.ws.host.home,
    index: () => ctx.ws.index(),
    onChange: (listener) => ctx.freshness.onChange(listener),
    withFresh: (work) => withFreshIndex(ctx, work),
  };
}

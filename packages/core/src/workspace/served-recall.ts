/**
 * A workspace's side of the recall service (recall-service/client.ts): what names the index a server
 * must hold for it, and asking that server. Kept out of workspace.ts, which only delegates.
 */
import {
  askServiceFor,
  serviceKeyFor,
  type RecallServiceKey,
  type RecallServiceSubject,
} from '../recall-service/client.js';
import type { RecallQuery, RecallResult } from '../memory/recall/recall.js';
import type { WorkspaceContext } from './context.js';
import type { WorkspaceOptions } from './options.js';

type IndexOptions = WorkspaceOptions['index'];

function serviceSubject(ws: WorkspaceContext, index: IndexOptions): RecallServiceSubject {
  return {
    root: ws.localRoot,
    env: ws.host.env as NodeJS.ProcessEnv,
    home: ws.host.home,
    indexRoot: index?.root,
    layout: ws.layout,
    config: ws.config,
  };
}

/** What identifies the index a recall server of AgentM `version` must hold for `ws`. */
export function servedIndexKey(
  ws: WorkspaceContext,
  index: IndexOptions,
  version: string,
): RecallServiceKey | undefined {
  return serviceKeyFor(serviceSubject(ws, index), version);
}

/** The recall server's answer, when one runs for this index and this recall is lexical; else undefined. */
export async function askServedRecall(
  ws: WorkspaceContext,
  index: IndexOptions,
  query: RecallQuery,
  version: string,
): Promise<RecallResult | undefined> {
  if (index?.embeddings !== false && (await ws.embedder()) !== undefined) return undefined;
  return askServiceFor(serviceSubject(ws, index), version, query);
}

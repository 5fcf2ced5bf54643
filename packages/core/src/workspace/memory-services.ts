/**
 * The workspace's memory services, in a module of their own so that opening a workspace does not load
 * the index, recall and consolidation until a service is asked for.
 */
import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import { NotFoundError } from '../seam/errors.js';
import { MemoryIndex } from '../memory/indexing/memory-index.js';
import { defaultIndexRoot } from '../memory/indexing/location.js';
import { noteToDocument } from '../memory/note-documents.js';
import { recall, type RecallQuery, type RecallResult } from '../memory/recall/recall.js';
import { phaseRecall, type PhaseRecallRequest, type PhaseRecallResult } from '../memory/recall/phase-recall-shell.js';
import {
  consolidate,
  type ConsolidationProgress,
  type ConsolidationReport,
} from '../memory/consolidation/consolidate.js';
import type { RefreshOptions } from '../memory/indexing/index-types.js';
import { noteBeliefStore } from '../memory/consolidation/note-belief-store.js';
import { projectsSpaceRungs } from '../routing/resolve-project.js';
import { bodyReader } from './body-reader.js';
import type { WorkspaceOptions } from './options.js';
import type { WorkspaceContext } from './context.js';

/** Opens the index of the workspace's store with its layout, lock root, index root and (unless disabled) embedder. */
export async function openWorkspaceIndex(
  ws: WorkspaceContext,
  options: NonNullable<WorkspaceOptions['index']>,
  backend: StorageBackend,
): Promise<MemoryIndex> {
  const env = ws.host.env as NodeJS.ProcessEnv;
  const embedder = options.embeddings === false ? undefined : await ws.embedder();
  return MemoryIndex.open({
    backend,
    toDocument: noteToDocument,
    layout: ws.layout,
    // Keyed by the workspace's store even when `backend` wraps it: both handles share one directory.
    ...(ws.localRoot !== undefined ? { memoryRoot: ws.localRoot } : {}),
    indexRoot: options.root ?? defaultIndexRoot(env, ws.host.home),
    lockRoot: ws.lockRoot,
    env,
    embedder,
    workerScript: options.workerScript,
  });
}

/** Recall after a refresh (skipped with `refresh: false` when the index is loaded); the refresh's warnings come first. */
export async function recallIn(
  index: MemoryIndex,
  query: RecallQuery,
  options: { refresh?: boolean; onProgress?: RefreshOptions['onProgress'] },
): Promise<RecallResult> {
  const refreshed =
    options.refresh === false && index.loadStatus === 'loaded'
      ? undefined
      : await index.refresh(options.onProgress ? { onProgress: options.onProgress } : {});
  const result = await recall(index, query);
  return { ...result, warnings: [...(refreshed?.warnings ?? []), ...result.warnings] };
}

/** Phase recall after a refresh, bodies read through the store (frontmatter removed). */
export async function phaseRecallIn(
  ws: WorkspaceContext,
  index: MemoryIndex,
  request: Omit<PhaseRecallRequest, 'env' | 'readBody'>,
): Promise<PhaseRecallResult> {
  const refreshed = await index.refresh();
  const result = await phaseRecall(index, {
    ...request,
    env: ws.host.env as NodeJS.ProcessEnv,
    readBody: bodyReader(ws.backend),
  });
  return { ...result, warnings: [...refreshed.warnings, ...result.warnings] };
}

/** One project's consolidation: the belief store and watermark `agentm consolidate` uses, the workspace's providers. */
export async function consolidateIn(
  ws: WorkspaceContext,
  options: {
    project: string;
    dryRun?: boolean;
    backend?: StorageBackend;
    onProgress?: ((progress: ConsolidationProgress) => void) | undefined;
  },
): Promise<ConsolidationReport> {
  const backend = options.backend ?? ws.backend;
  const folder = await ws.projectFolder(options.project, backend);
  const [chat, embedder] = await Promise.all([ws.chat(), ws.embedder()]);
  return consolidate({
    backend,
    project: options.project,
    beliefs: noteBeliefStore(backend, {
      config: ws.config,
      vocabulary: await ws.vocabulary(),
      projectFolder: async () => folder,
    }),
    watermark: folder.child('_harness', 'consolidation.json'),
    layout: ws.layout,
    chat,
    embedder,
    dryRun: options.dryRun === true,
    onProgress: options.onProgress,
  });
}

/** Every project with a `_harness/` folder, in each projects space (the probe's rungs), each slug once, sorted. */
export async function projectsWithHarness(ws: WorkspaceContext): Promise<string[]> {
  const found = new Set<string>();
  for (const rung of projectsSpaceRungs(ws.config)) {
    let children: Locator[];
    try {
      children = await ws.backend.list(ws.backend.resolve(rung.path));
    } catch (error) {
      if (error instanceof NotFoundError) continue;
      throw error;
    }
    for (const child of children) {
      if (child.name.startsWith('.') || child.name.startsWith('_') || found.has(child.name)) continue;
      if (await ws.backend.exists(child.child('_harness'))) found.add(child.name);
    }
  }
  return [...found].sort();
}

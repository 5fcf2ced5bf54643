/**
 * The workspace's index and recall, in a module of their own so that opening a workspace does not load
 * them until a service asks (consolidation has its own module: a recall does not load it either).
 */
import type { StorageBackend } from '../seam/backend.js';
import { MemoryIndex } from '../memory/indexing/memory-index.js';
import { defaultIndexRoot } from '../memory/indexing/location.js';
import { noteToDocument } from '../memory/note-documents.js';
import { recall, type RecallQuery, type RecallResult } from '../memory/recall/recall.js';
import { phaseRecall, type PhaseRecallRequest, type PhaseRecallResult } from '../memory/recall/phase-recall-shell.js';
import type { RefreshOptions } from '../memory/indexing/index-types.js';
import { memorySettingsFromConfig } from '../memory/memory-config.js';
import { bodyReader } from './body-reader.js';
import { resolveRecallQuery } from './recall-service.js';
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
    // A huge note is indexed by its head (config memory.index.max_note_chars): its size never sets RSS.
    maxNoteChars: memorySettingsFromConfig(ws.config).maxNoteChars,
  });
}

/**
 * Recall after a refresh (skipped with `refresh: false` when the index is loaded); the refresh's
 * warnings come first. Notes age by the config's `memory.recall.note_half_life` unless the query says
 * otherwise (a `halfLife` given alone applies to notes too).
 */
export async function recallIn(
  ws: WorkspaceContext,
  index: MemoryIndex,
  query: RecallQuery,
  options: {
    refresh?: boolean;
    onProgress?: RefreshOptions['onProgress'];
    onBuildProgress?: RefreshOptions['onProgress'];
  },
): Promise<RecallResult> {
  const onProgress = options.onProgress ?? (index.loadStatus !== 'loaded' ? options.onBuildProgress : undefined);
  const refreshed =
    options.refresh === false && index.loadStatus === 'loaded'
      ? undefined
      : await index.refresh(onProgress ? { onProgress } : {});
  const result = await recall(index, resolveRecallQuery(ws.config, query));
  return { ...result, warnings: [...(refreshed?.warnings ?? []), ...result.warnings] };
}

/** Phase recall after a refresh (unless `refresh: false` finds the index loaded), bodies read through the store (frontmatter removed). */
export async function phaseRecallIn(
  ws: WorkspaceContext,
  index: MemoryIndex,
  request: Omit<PhaseRecallRequest, 'env' | 'readBody'>,
  options: { readonly refresh?: boolean } = {},
): Promise<PhaseRecallResult> {
  const refreshed =
    options.refresh === false && index.loadStatus === 'loaded' ? { warnings: [] } : await index.refresh();
  const settings = memorySettingsFromConfig(ws.config);
  const result = await phaseRecall(index, {
    noteHalfLife: settings.noteHalfLife,
    formula: settings.formula,
    ...request,
    env: ws.host.env as NodeJS.ProcessEnv,
    readBody: bodyReader(ws.backend),
  });
  return { ...result, warnings: [...refreshed.warnings, ...result.warnings] };
}

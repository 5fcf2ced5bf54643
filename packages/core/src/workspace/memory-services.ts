/**
 * The workspace's index and recall, in a module of their own so that opening a workspace does not load
 * them until a service asks (consolidation has its own module: a recall does not load it either).
 */
import type { StorageBackend } from '../seam/backend.js';
import { MemoryIndex } from '../memory/indexing/memory-index.js';
import { defaultIndexRoot } from '../memory/indexing/location.js';
import { recall, type RecallQuery, type RecallResult } from '../memory/recall/recall.js';
import { phaseRecall, type PhaseRecallRequest, type PhaseRecallResult } from '../memory/recall/phase-recall-shell.js';
import { NOTE_MAPPER, type RefreshOptions } from '../memory/indexing/index-types.js';
import { DEFAULT_REVALIDATE_AFTER_MS, memorySettingsFromConfig } from '../memory/memory-config.js';
import { backgroundRefresherRunning } from '../memory/indexing/background-refresh.js';
import { resolveRecallQuery } from '../recall-service/client.js';
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
    toDocument: NOTE_MAPPER,
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
    verify: options.verify,
  });
}

/** How a recall brings the index up to date first. */
export interface FreshnessOptions {
  /** `false`: use a loaded index as it is. */
  readonly refresh?: boolean | undefined;
  readonly onProgress?: RefreshOptions['onProgress'];
  /** Like `onProgress`, but only while the index is being built (a first recall), not refreshed. */
  readonly onBuildProgress?: RefreshOptions['onProgress'];
  /** See `WorkspaceOptions.index.revalidate`: catch up without a walk, and ask for one in the background. */
  readonly revalidate?: (() => void) | undefined;
  /**
   * A recall on a terminal: when no note has a vector yet (the first hybrid recall), embed them first and
   * tell how far it is (a later recall answers at once: the missing vectors are computed in the background).
   */
  readonly onEmbedProgress?: RefreshOptions['onProgress'];
}

/**
 * Brings the index up to date for an answer: a full walk (`refresh`) — or, for a short-lived process that
 * can start a background refresh (`revalidate`), only what the change log and the folders say changed
 * (`refreshChanges`: AgentM's own writes are always in; other programs' in-place edits once a background
 * walk has run), asking for that walk when it is due and none is running. Undefined with `refresh: false`.
 */
export async function upToDate(ws: WorkspaceContext, index: MemoryIndex, options: FreshnessOptions) {
  if (options.refresh === false && index.loadStatus === 'loaded') return undefined;
  const onProgress = options.onProgress ?? (index.loadStatus !== 'loaded' ? options.onBuildProgress : undefined);
  const refreshOptions = onProgress ? { onProgress } : {};
  if (options.revalidate === undefined) {
    // A long-lived host: it walks, and computes the missing vectors in the background, in this process.
    const walked = await index.refresh(refreshOptions);
    if (index.embeddings?.behind()) void index.embeddings.runInBackground();
    return walked;
  }
  const report = await index.refreshChanges(refreshOptions);
  const after = memorySettingsFromConfig(ws.config).revalidateAfterMs ?? DEFAULT_REVALIDATE_AFTER_MS;
  // Due: a walk, the missing vectors, or the journal's changes to fold into the snapshot (`compact`).
  const due = index.revalidationDue(after) || index.embeddings?.behind() === true || index.changesPending;
  if (due && !(await backgroundRefresherRunning(index))) options.revalidate();
  return report;
}

/**
 * What the embeddings add to an answer's warnings: the failure of a background run no answer has shown
 * yet; and, on a terminal (`onEmbedProgress`) before the first hybrid recall, the run that embeds every
 * note (with its progress), its failure if it fails.
 */
async function embeddingsFirst(index: MemoryIndex, options: FreshnessOptions): Promise<string[]> {
  const embeddings = index.embeddings;
  if (embeddings === undefined) return [];
  const untold = await embeddings.embedder.unannounced();
  const warnings = untold !== undefined ? [untold] : [];
  if (options.onEmbedProgress && embeddings.vectors.vectors.size === 0 && index.state.docs.size > 0)
    warnings.push(...(await embeddings.run({ onProgress: options.onEmbedProgress })).warnings);
  return warnings;
}

/**
 * Recall after bringing the index up to date (see `upToDate`); the refresh's warnings come first. Notes
 * age by the config's `memory.recall.note_half_life` unless the query says otherwise (a `halfLife` given
 * alone applies to notes too).
 */
export async function recallIn(
  ws: WorkspaceContext,
  index: MemoryIndex,
  query: RecallQuery,
  options: FreshnessOptions,
): Promise<RecallResult> {
  const refreshed = await upToDate(ws, index, options);
  const embedding = await embeddingsFirst(index, options);
  const result = await recall(index, resolveRecallQuery(ws.config, query));
  return { ...result, warnings: [...(refreshed?.warnings ?? []), ...embedding, ...result.warnings] };
}

/** Phase recall after bringing the index up to date (see `upToDate`), bodies read through the store (frontmatter removed). */
export async function phaseRecallIn(
  ws: WorkspaceContext,
  index: MemoryIndex,
  request: Omit<PhaseRecallRequest, 'env' | 'readBody'>,
  options: FreshnessOptions = {},
): Promise<PhaseRecallResult> {
  const refreshed = await upToDate(ws, index, options);
  // The note parser (and YAML with it) is loaded for phase recall, which reads bodies; a recall reads none.
  const { bodyReader } = await import('./body-reader.js');
  const settings = memorySettingsFromConfig(ws.config);
  const result = await phaseRecall(index, {
    noteHalfLife: settings.noteHalfLife,
    formula: settings.formula,
    ...request,
    env: ws.host.env as NodeJS.ProcessEnv,
    readBody: bodyReader(ws.backend),
  });
  return { ...result, warnings: [...(refreshed?.warnings ?? []), ...result.warnings] };
}

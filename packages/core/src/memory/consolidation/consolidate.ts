import type { StorageBackend } from '../../seam/backend.js';
import type { Locator } from '../../seam/locator.js';
import { DEFAULT_LAYOUT, type MemoryLayout } from '../documents/layout.js';
import { ProviderError } from '../../providers/errors.js';
import type { ChatProvider } from '../../providers/chat.js';
import type { EmbeddingProvider } from '../../providers/embeddings.js';
import type { BeliefStore } from './belief-store.js';
import { clusterBySimilarity } from './cluster.js';
import { CONSOLIDATION_DEFAULTS, nextWatermark, type ConsolidationConfig } from './decisions.js';
import { distilCluster, type EpisodeLike } from './distil.js';
import { readProjectEpisodes } from './episodes-source.js';
import { planConsolidation, type Action, type Candidate } from './plan.js';
import { cosine, lexicalSimilarity } from '../similarity.js';
import { isAfterWatermark, readWatermark, writeWatermark } from './watermark.js';

export interface ConsolidateOptions {
  readonly backend: StorageBackend;
  readonly project: string;
  readonly beliefs: BeliefStore;
  /** Where the project's watermark lives (see `watermarkLocatorFor`). */
  readonly watermark: Locator;
  /** The episodes to consider (default: the project's progress files, read through the backend). */
  readonly episodes?: readonly EpisodeLike[];
  readonly layout?: MemoryLayout;
  readonly config?: Partial<ConsolidationConfig>;
  /** Distils with this chat model (default: extractive). */
  readonly chat?: ChatProvider | undefined;
  /** Measures similarity with these embeddings (default: lexical cosine). */
  readonly embedder?: EmbeddingProvider | undefined;
  readonly now?: number;
  /** Decide and report, write nothing. */
  readonly dryRun?: boolean;
  /** Told as clusters are distilled and beliefs written (a progress bar); keep it cheap. */
  readonly onProgress?: ((progress: ConsolidationProgress) => void) | undefined;
}

/** How far a consolidation has got: clusters distilled (each may be a model call), then beliefs written. */
export interface ConsolidationProgress {
  readonly phase: 'distilling' | 'writing';
  readonly done: number;
  readonly total: number;
}

export interface ConsolidationReport {
  readonly project: string;
  readonly dryRun: boolean;
  /** New episodes considered (after the watermark, at most batchMax). */
  readonly episodes: number;
  readonly clusters: number;
  readonly created: readonly { id?: string; statement: string; confidence: number; derivedFrom: readonly string[] }[];
  readonly reinforced: readonly { id: string; statement: string; confidence: number; similarity: number }[];
  readonly decayed: readonly { id: string; from: number; to: number }[];
  readonly pruned: readonly { id: string; from: number; to: number }[];
  readonly skipped: number;
  readonly watermark: { readonly fromMs: number; readonly toMs: number };
  readonly warnings: readonly string[];
}

/**
 * One consolidation run for a project: new episodes since the watermark are clustered by
 * similarity, each cluster distilled into at most one belief, deduplicated against the active beliefs
 * (reinforce or create), unreinforced beliefs decayed and pruned, and the watermark advanced (CAS) to
 * the newest episode consolidated. Beliefs are written before the watermark: a run interrupted in
 * between is repeated without double counting (provenance and applied decay windows are in the beliefs).
 * Running it again over the same episodes changes nothing. Provider failures degrade (extractive,
 * lexical) with warnings.
 */
export async function consolidate(options: ConsolidateOptions): Promise<ConsolidationReport> {
  const config: ConsolidationConfig = { ...CONSOLIDATION_DEFAULTS, ...options.config };
  const now = options.now ?? Date.now();
  const warnings: string[] = [];
  const { watermark: prior, hash } = await readWatermark(options.backend, options.watermark);
  const all =
    options.episodes ?? (await readProjectEpisodes(options.backend, options.project, options.layout ?? DEFAULT_LAYOUT));
  const batch = [...all]
    .filter((e) => isAfterWatermark(e, prior))
    .sort((a, b) => a.timeMs - b.timeMs || (a.id < b.id ? -1 : 1))
    .slice(0, Math.max(0, config.batchMax));

  const beliefs = await options.beliefs.listActiveBeliefs(options.project);
  const similarity = await similarityFor(
    [...batch.map((e) => e.text), ...beliefs.map((b) => b.statement)],
    options.embedder,
    warnings,
  );
  const clusters = clusterBySimilarity(batch, (a, b) => similarity(a.text, b.text), config.clusterThreshold);
  const candidates: Candidate[] = [];
  for (const [i, cluster] of clusters.entries()) {
    options.onProgress?.({ phase: 'distilling', done: i, total: clusters.length });
    const distilled = await distilCluster(cluster, { chat: options.chat, similarity, config, warnings });
    if (distilled) candidates.push({ ...distilled, episodeIds: cluster.map((e) => e.id) });
  }
  // Candidate statements (new text) need vectors too; fall back to lexical for the comparison if that fails.
  const compare =
    candidates.length > 0
      ? await similarityFor(
          [...candidates.map((c) => c.statement), ...beliefs.map((b) => b.statement)],
          options.embedder,
          warnings,
        )
      : similarity;
  const actions = planConsolidation({
    candidates,
    beliefs,
    owner: options.project,
    nowMs: now,
    config,
    similarity: compare,
  });

  const report = summarize(options, actions, batch.length, clusters.length, prior.watermarkMs, warnings);
  const toMs = nextWatermark(
    prior.watermarkMs,
    batch.map((e) => e.timeMs),
  );
  if (options.dryRun) return { ...report, watermark: { fromMs: prior.watermarkMs, toMs } };

  const created = [];
  for (const [i, action] of actions.entries()) {
    options.onProgress?.({ phase: 'writing', done: i, total: actions.length });
    if (action.type === 'create')
      created.push({ ...(await options.beliefs.createBelief(action.draft)), derivedFrom: action.draft.derivedFrom });
    else if (action.type !== 'skip') await options.beliefs.updateBelief(action.belief, action.change);
  }
  if (batch.length > 0) {
    const boundary = batch.filter((e) => e.timeMs === toMs).map((e) => e.id);
    const boundaryIds = toMs === prior.watermarkMs ? [...new Set([...prior.boundaryIds, ...boundary])] : boundary;
    await writeWatermark(
      options.backend,
      options.watermark,
      { watermarkMs: toMs, boundaryIds, lastRunMs: now, episodesSeen: prior.episodesSeen + batch.length },
      hash,
    );
  }
  return {
    ...report,
    created: created.map((b) => ({
      id: b.id,
      statement: b.statement,
      confidence: b.confidence,
      derivedFrom: b.derivedFrom,
    })),
    watermark: { fromMs: prior.watermarkMs, toMs },
  };
}

/** Cosine over embeddings of `texts` when a provider is given and answers; lexical cosine otherwise. */
async function similarityFor(
  texts: readonly string[],
  embedder: EmbeddingProvider | undefined,
  warnings: string[],
): Promise<(a: string, b: string) => number> {
  if (!embedder || texts.length === 0) return lexicalSimilarity;
  const unique = [...new Set(texts)];
  try {
    const vectors = await embedder.embed(unique);
    const byText = new Map(unique.map((t, i) => [t, vectors[i]!]));
    return (a, b) => {
      const va = byText.get(a);
      const vb = byText.get(b);
      return va && vb ? cosine(va, vb) : lexicalSimilarity(a, b);
    };
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    warnings.push(`${error.message} — compared lexically instead`);
    return lexicalSimilarity;
  }
}

function summarize(
  options: ConsolidateOptions,
  actions: readonly Action[],
  episodes: number,
  clusters: number,
  fromMs: number,
  warnings: string[],
): ConsolidationReport {
  const report = {
    project: options.project,
    dryRun: options.dryRun === true,
    episodes,
    clusters,
    created: [] as { statement: string; confidence: number; derivedFrom: readonly string[] }[],
    reinforced: [] as { id: string; statement: string; confidence: number; similarity: number }[],
    decayed: [] as { id: string; from: number; to: number }[],
    pruned: [] as { id: string; from: number; to: number }[],
    skipped: 0,
    watermark: { fromMs, toMs: fromMs },
    warnings,
  };
  for (const a of actions) {
    if (a.type === 'create')
      report.created.push({
        statement: a.draft.statement,
        confidence: a.draft.confidence,
        derivedFrom: a.draft.derivedFrom,
      });
    else if (a.type === 'reinforce')
      report.reinforced.push({
        id: a.belief.id,
        statement: a.belief.statement,
        confidence: a.change.confidence!,
        similarity: a.similarity,
      });
    else if (a.type === 'decay')
      report.decayed.push({ id: a.belief.id, from: a.belief.confidence, to: a.change.confidence! });
    else if (a.type === 'prune')
      report.pruned.push({ id: a.belief.id, from: a.belief.confidence, to: a.change.confidence! });
    else report.skipped++;
  }
  return report;
}

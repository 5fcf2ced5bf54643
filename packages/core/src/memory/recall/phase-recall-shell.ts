import type { StoredDoc } from '../indexing/index-state.js';
import { renderPhaseRecall, type PhaseCandidate, type PhaseRecallOutput } from './phase-recall.js';
import { normalizePhase, phaseBudget } from './budget.js';
import { inScope } from '../documents/rank-contract.js';
import { recall, type RecallSource } from './recall.js';
import { memoriesToInject } from './injection.js';

export interface PhaseRecallRequest {
  readonly phase?: string | undefined;
  readonly project?: string | undefined;
  /** Free text that ranks the candidates (the seam's `query`); absent ranks by recency. */
  readonly query?: string | undefined;
  /** Token budget; default per phase (`phaseBudget`). */
  readonly limit?: number | undefined;
  readonly env?: NodeJS.ProcessEnv;
  readonly now?: number;
  /** Recency half-life of notes (default RECALL_DEFAULTS.noteHalfLife). */
  readonly noteHalfLife?: number | undefined;
  /** How recency weighs (default `prior`; config `memory.recall.formula`). */
  readonly formula?: 'prior' | 'memql' | undefined;
  /** Candidates considered before the budget (default 50). */
  readonly candidates?: number;
  readonly weights?: Readonly<Record<string, Readonly<Record<string, number>>>>;
  /**
   * The body to show for a memory (the note without its frontmatter, read through the backend).
   * Default: the index's preview. Returning undefined falls back to the preview.
   */
  readonly readBody?: (doc: Pick<StoredDoc, 'id' | 'locator' | 'kind'>) => Promise<string | undefined>;
}

export interface PhaseRecallResult extends PhaseRecallOutput {
  readonly warnings: readonly string[];
}

/**
 * Phase recall over the index: always-load notes of the project (and global ones) plus the best
 * recall candidates — for a query, only those that pass the injection floor — weighted per phase and
 * rendered within the phase's token budget.
 */
export async function phaseRecall(source: RecallSource, request: PhaseRecallRequest): Promise<PhaseRecallResult> {
  const phase = normalizePhase(request.phase);
  const now = request.now ?? Date.now();
  const budgetTokens = phaseBudget(phase, { limit: request.limit, env: request.env ?? process.env });
  const k = request.candidates ?? 50;
  const result = await recall(source, {
    text: request.query,
    project: request.project,
    k,
    now,
    noteHalfLife: request.noteHalfLife,
    formula: request.formula,
  });
  // Asked about something, give only what bears on it (the injection floor): nothing rather than noise.
  const items =
    result.mode === 'recency' ? result.items : memoriesToInject(result.items, k, undefined, result.contentWords);
  const always = source.state
    .alwaysLoadDocs()
    .filter((d) => inScope(d, { project: request.project, kinds: undefined, window: 0, now }));
  const body = async (doc: Pick<StoredDoc, 'id' | 'locator' | 'kind' | 'preview'>) =>
    (await request.readBody?.(doc)) ?? doc.preview;
  const seen = new Set<string>();
  const candidates: PhaseCandidate[] = [];
  for (const doc of always) {
    seen.add(doc.id);
    candidates.push({
      id: doc.id,
      locator: doc.locator,
      title: doc.title,
      kind: doc.kind,
      body: await body(doc),
      score: 1,
      alwaysLoad: true,
      updatedMs: doc.updatedMs,
    });
  }
  for (const item of items) {
    if (seen.has(item.id)) continue;
    const doc = source.state.docs.get(item.id);
    if (!doc) continue;
    candidates.push({
      id: item.id,
      locator: item.locator,
      title: item.title,
      kind: item.kind,
      body: await body(doc),
      score: item.score,
      alwaysLoad: false,
      updatedMs: item.updatedMs,
    });
  }
  const rendered = renderPhaseRecall({
    phase,
    project: request.project,
    candidates,
    budgetTokens,
    ...(request.weights ? { weights: request.weights } : {}),
  });
  return { ...rendered, warnings: result.warnings };
}

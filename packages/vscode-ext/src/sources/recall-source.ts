import * as vscode from 'vscode';
import type { MemoryIndex, RecallItem } from '@agentm/core/memory';
import { recallTuning } from '../recall-tuning';
import { readSettings } from '../settings';
import type { IndexService } from './index-service';
import { memoryFile, type ProjectTracker } from './project-tracker';
import type { RecallAnswer, RecallHit, RecallRequest, RecallSource, RecallState } from './types';

function hitOf(
  root: string,
  item: Pick<RecallItem, 'title' | 'kind' | 'locator' | 'score' | 'similarity' | 'recency' | 'snippet' | 'updatedMs'>,
): RecallHit {
  return {
    title: item.title,
    kind: item.kind,
    uri: memoryFile(root, item.locator),
    score: item.score,
    similarity: item.similarity,
    recency: item.recency,
    snippet: item.snippet,
    updatedMs: item.updatedMs,
  };
}

/**
 * Recall through the workspace (its query resolution: the config's note half-life, the recall defaults)
 * over the index the IndexService keeps current: phase recall (always-load notes plus the best
 * candidates weighted for the phase, within its budget) for the Recall view, and recall (BM25, plus
 * vectors when an embedding provider is set, blended with recency) for queries, with only the
 * `agentm.recall.*` tuning a person set. Both are scoped to the current project and global notes.
 */
export class CoreRecallSource implements RecallSource {
  readonly onDidChange: vscode.Event<void>;
  readonly onDidChangeScope: vscode.Event<void>;

  constructor(
    private readonly tracker: ProjectTracker,
    private readonly indexes: IndexService,
  ) {
    this.onDidChange = (listener, thisArg, disposables) => {
      const both = vscode.Disposable.from(
        indexes.onDidChange(listener, thisArg),
        tracker.onDidChangeWorkspace(listener, thisArg),
      );
      disposables?.push(both);
      return both;
    };
    this.onDidChangeScope = tracker.onDidChangeWorkspace;
  }

  async phase(phase: string, token: vscode.CancellationToken): Promise<RecallState> {
    const ws = await this.tracker.current();
    if (!ws.project) return { kind: 'noProject', reason: ws.noProject ?? 'no project' };
    const index = await this.indexes.index();
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    const project = ws.project.slug;
    const rendered = await ws.workspace.phaseRecall({ phase, project }, { refresh: false });
    if (rendered.included.length === 0) return { kind: 'memoryEmpty' };
    const scores = await ws.workspace.recall({ project, k: 50, ...recallTuning(readSettings()) }, { refresh: false });
    const scored = new Map(scores.items.map((item) => [item.id, item]));
    const hits = rendered.included.flatMap((id) => {
      const item = scored.get(id) ?? alwaysLoadItem(index, id);
      return item ? [hitOf(ws.memoryRoot!, item)] : [];
    });
    return hits.length ? { kind: 'ready', hits } : { kind: 'memoryEmpty' };
  }

  async search(query: string, token: vscode.CancellationToken): Promise<readonly RecallHit[]> {
    const ws = await this.tracker.current();
    await this.indexes.current();
    if (token.isCancellationRequested) return [];
    const settings = readSettings();
    const result = await ws.workspace.recall(
      { text: query, project: ws.project?.slug, k: settings.recall.maxResults, ...recallTuning(settings) },
      { refresh: false },
    );
    // A failing embeddings endpoint: lexical, and said once (core remembers it told), not per query.
    for (const warning of result.warnings) void vscode.window.showWarningMessage(`AgentM: ${warning}`);
    return result.items.map((item) => hitOf(ws.memoryRoot!, item));
  }

  async query(request: RecallRequest, token: vscode.CancellationToken): Promise<RecallAnswer> {
    const ws = await this.tracker.current();
    await this.indexes.current();
    if (token.isCancellationRequested) throw new vscode.CancellationError();
    const settings = readSettings();
    const project = request.scope === 'all' ? undefined : ws.project?.slug;
    const result = await ws.workspace.recall(
      {
        text: request.text,
        project,
        k: request.limit ?? settings.recall.maxResults,
        ...(request.kinds?.length ? { kinds: request.kinds } : {}),
        ...recallTuning(settings),
      },
      { refresh: false },
    );
    return {
      hits: result.items.map((item) => hitOf(ws.memoryRoot!, item)),
      project,
      mode: result.mode,
      warnings: result.warnings, // a failing embeddings endpoint's, once (core's recall adds it)
    };
  }
}

/** An always-load note phase recall included without a recall score: shown with score 1. */
function alwaysLoadItem(index: MemoryIndex, id: string) {
  const doc = index.state.docs.get(id);
  return (
    doc && {
      title: doc.title,
      kind: doc.kind,
      locator: doc.locator,
      score: 1,
      similarity: 1,
      recency: 1,
      snippet: doc.preview.slice(0, 200),
      updatedMs: doc.updatedMs,
    }
  );
}

import type * as vscode from 'vscode';
import { NothingToDoError } from '../errors';
import { CancellableBackend } from './cancellable-backend';
import type { IndexService } from './index-service';
import type { ProjectTracker } from './project-tracker';
import type { MemoryMaintenance, WorkProgress } from './types';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Reindex and consolidate, cancellable: the work runs over a backend that refuses further reads and
 * writes once cancelled. A cancelled rebuild persists nothing (the index keeps its previous state); a
 * cancelled consolidation keeps its watermark, so the next run redoes what was left without double
 * counting (core's contract).
 */
export class CoreMemoryMaintenance implements MemoryMaintenance {
  constructor(
    private readonly tracker: ProjectTracker,
    private readonly indexes: IndexService,
  ) {}

  /** Rebuilds the index of the memory root from the notes (`MemoryIndex.rebuild`), then reloads the views' index. */
  async reindex(progress: WorkProgress, token: vscode.CancellationToken): Promise<string> {
    const ws = await this.tracker.current();
    if (!ws.memoryRoot)
      throw new NothingToDoError(`the ${ws.workspace.protocol} backend has no folder on disk to index`);
    const started = Date.now();
    progress.report({ message: `reading the notes under ${ws.memoryRoot}` });
    const index = await this.indexes.openSibling(new CancellableBackend(ws.workspace.backend, token));
    const report = await index.rebuild();
    await this.indexes.sync();
    const skipped = report.errors.length
      ? `; skipped ${plural(report.errors.length, 'file')} (see the AgentM output)`
      : '';
    const copies = report.conflictCopies.length
      ? `; ${plural(report.conflictCopies.length, 'sync conflict copy')} left out`
      : '';
    return `indexed ${plural(report.documents, 'document')} from ${plural(report.read, 'file')} in ${Date.now() - started} ms${skipped}${copies}`;
  }

  /**
   * Distils the project's new progress episodes into beliefs through the workspace (the store and watermark
   * `agentm consolidate` uses, so the CLI and the extension consolidate one vault together), with the
   * window's chat model — the `agentm.providers.*` endpoint, else VS Code's language model — reinforcing,
   * decaying, pruning.
   */
  async consolidate(progress: WorkProgress, token: vscode.CancellationToken): Promise<string> {
    const ws = await this.tracker.current();
    if (!ws.project?.slug || !ws.project.projectLocator)
      throw new NothingToDoError(`nothing to consolidate: ${ws.noProject}`);
    progress.report({ message: `project ${ws.project.slug}: reading new episodes` });
    const report = await ws.workspace.consolidate({
      project: ws.project.slug,
      backend: new CancellableBackend(ws.workspace.backend, token),
    });
    await this.indexes.sync().catch(() => undefined);
    const warnings = report.warnings.length ? ` (${report.warnings.join('; ')})` : '';
    return (
      `${ws.project.slug}: ${plural(report.episodes, 'new episode')} in ${plural(report.clusters, 'cluster')} → ` +
      `created ${report.created.length}, reinforced ${report.reinforced.length}, decayed ${report.decayed.length}, pruned ${report.pruned.length}${warnings}`
    );
  }
}

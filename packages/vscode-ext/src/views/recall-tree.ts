import * as vscode from 'vscode';
import type { ErrorFunnel } from '../funnel';
import { readSettings } from '../settings';
import type { RecallHit, RecallSource, RecallState } from '../sources/types';
import { hitText } from './presentation';
import { setContextKey } from '../context-keys';
import type { ViewSnapshot } from './plan-tree';
import { snapshotItems } from './snapshot';

export type RecallNode =
  | { readonly type: 'section'; readonly label: string; readonly hits: readonly RecallHit[]; readonly scored: boolean }
  | { readonly type: 'hit'; readonly hit: RecallHit; readonly scored: boolean };

/**
 * The Recall view: phase recall for the current phase, then the results of the last recall query.
 * Each hit opens its note. Empty states are welcome views keyed on `agentm.recall.state`. The view's
 * first load is what opens the memory index, so the index never starts before the view is visible.
 */
export class RecallTreeProvider implements vscode.TreeDataProvider<RecallNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<RecallNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  #search: { readonly query: string; readonly hits: readonly RecallHit[] } | undefined;
  #sections: RecallNode[] = [];
  #kind: string | undefined;
  #loadedAt: number | undefined;
  #loads = 0;
  readonly #subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly source: RecallSource,
    private readonly funnel: ErrorFunnel,
  ) {
    this.#subscriptions.push(
      source.onDidChange(() => this.refresh()),
      source.onDidChangeScope(() => {
        this.#search = undefined;
        this.refresh();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('agentm.recall')) this.refresh();
      }),
    );
  }

  refresh(): void {
    this.#changed.fire(undefined);
  }

  /** Shows a recall query's results under the phase recall. */
  showSearch(query: string, hits: readonly RecallHit[]): void {
    this.#search = { query, hits };
    this.refresh();
  }

  async getChildren(node?: RecallNode): Promise<RecallNode[]> {
    if (node?.type === 'section') return node.hits.map((hit) => ({ type: 'hit', hit, scored: node.scored }));
    if (node) return [];
    this.#sections = await this.#load();
    return this.#sections;
  }

  async #load(): Promise<RecallNode[]> {
    const phase = readSettings().phase;
    let state: RecallState | undefined;
    const cancel = new vscode.CancellationTokenSource();
    try {
      state = await this.source.phase(phase, cancel.token);
      this.funnel.background('recall view', undefined);
    } catch (error) {
      this.funnel.background('recall view', error);
    } finally {
      cancel.dispose();
    }
    this.#kind = state?.kind ?? 'error';
    this.#loadedAt = Date.now();
    this.#loads++;
    // Search results stay visible even when the phase has nothing (or no project): they answer a query.
    const search: RecallNode[] = this.#search
      ? [{ type: 'section', label: `Results for "${this.#search.query}"`, hits: this.#search.hits, scored: true }]
      : [];
    await setContextKey('agentm.recall.state', search.length && this.#kind !== 'ready' ? 'ready' : this.#kind);
    if (state?.kind !== 'ready') return search;
    return [{ type: 'section', label: `Phase: ${phase}`, hits: state.hits, scored: false }, ...search];
  }

  /** The items the view shows now (from its last load; nothing is re-read). */
  async snapshot(): Promise<ViewSnapshot> {
    return {
      state: this.#kind,
      loadedAt: this.#loadedAt,
      loads: this.#loads,
      items: await snapshotItems(this, this.#sections),
    };
  }

  getTreeItem(node: RecallNode): vscode.TreeItem {
    if (node.type === 'section') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `section:${node.label}`;
      item.description = `${node.hits.length} notes`;
      item.contextValue = 'agentm.recallSection';
      return item;
    }
    const text = hitText(node.hit, node.scored);
    const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
    item.description = text.description;
    item.tooltip = text.tooltip;
    item.contextValue = text.contextValue;
    item.iconPath = new vscode.ThemeIcon('note');
    item.resourceUri = node.hit.uri;
    item.command = { command: 'vscode.open', title: 'Open note', arguments: [node.hit.uri] };
    return item;
  }

  dispose(): void {
    for (const s of this.#subscriptions) s.dispose();
    this.#changed.dispose();
  }
}

import * as vscode from 'vscode';
import type { ErrorFunnel } from '../funnel';
import { readSettings } from '../settings';
import type { RecallHit, RecallSource, RecallState } from '../sources/types';
import { hitText } from './presentation';
import { setViewState } from './plan-tree';

export type RecallNode =
  | { readonly type: 'section'; readonly label: string; readonly hits: readonly RecallHit[] }
  | { readonly type: 'hit'; readonly hit: RecallHit };

/**
 * The Recall view: phase recall for the current phase, then the results of the last recall query.
 * Each hit opens its note. Empty states are welcome views keyed on `agentm.recall.state`.
 */
export class RecallTreeProvider implements vscode.TreeDataProvider<RecallNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<RecallNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  #search: { readonly query: string; readonly hits: readonly RecallHit[] } | undefined;
  readonly #subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly source: RecallSource | undefined,
    private readonly funnel: ErrorFunnel,
  ) {
    if (source) this.#subscriptions.push(source.onDidChange(() => this.refresh()));
    this.#subscriptions.push(
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
    if (node?.type === 'section') return node.hits.map((hit) => ({ type: 'hit', hit }));
    if (node) return [];
    if (!this.source) {
      await setViewState('agentm.recall.state', 'unavailable');
      return [];
    }
    const phase = readSettings().phase;
    let state: RecallState;
    try {
      const cancel = new vscode.CancellationTokenSource();
      state = await this.source.phase(phase, cancel.token).finally(() => cancel.dispose());
      this.funnel.background('recall view', undefined);
    } catch (error) {
      this.funnel.background('recall view', error);
      await setViewState('agentm.recall.state', 'error');
      return [];
    }
    await setViewState('agentm.recall.state', state.kind);
    if (state.kind !== 'ready') return [];
    const sections: RecallNode[] = [{ type: 'section', label: `Phase: ${phase}`, hits: state.hits }];
    if (this.#search) sections.push({ type: 'section', label: `Results for "${this.#search.query}"`, hits: this.#search.hits });
    return sections;
  }

  getTreeItem(node: RecallNode): vscode.TreeItem {
    if (node.type === 'section') {
      const item = new vscode.TreeItem(node.label, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `section:${node.label}`;
      item.description = `${node.hits.length} notes`;
      item.contextValue = 'agentm.recallSection';
      return item;
    }
    const text = hitText(node.hit);
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

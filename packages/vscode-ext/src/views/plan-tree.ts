import * as vscode from 'vscode';
import type { ErrorFunnel } from '../funnel';
import type { PlanSource, PlanState, PlanView, ProgressEntryView, StepView } from '../sources/types';
import { STEP_ICONS, planText, progressText, stepText } from './presentation';
import { setContextKey } from '../context-keys';
import { snapshotItems, type ItemSnapshot } from './snapshot';

export type PlanNode =
  | { readonly type: 'plan'; readonly plan: PlanView }
  | { readonly type: 'step'; readonly plan: PlanView; readonly step: StepView }
  | { readonly type: 'progress'; readonly plan: PlanView }
  | { readonly type: 'entry'; readonly plan: PlanView; readonly entry: ProgressEntryView };

/** The view's state for its welcome content. */
export type PlanViewKind = PlanState['kind'] | 'error';

/** What the view shows now, as data: its state, when it was last loaded, and its items. */
export interface ViewSnapshot {
  readonly state: string | undefined;
  /** `Date.now()` when the view last loaded its data (VS Code asked for its items). */
  readonly loadedAt: number | undefined;
  readonly loads: number;
  readonly items: readonly ItemSnapshot[];
}

/**
 * The Plan view: the project's plans (the active one expanded), their steps with status icons and
 * `after` dependencies, and the latest progress entries. Re-reads when the source reports a change;
 * the empty states are welcome views keyed on the `agentm.plan.state` context key.
 */
export class PlanTreeProvider implements vscode.TreeDataProvider<PlanNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<PlanNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  #state: PlanState | undefined;
  #kind: PlanViewKind | undefined;
  #loadedAt: number | undefined;
  #loads = 0;
  readonly #subscription: vscode.Disposable;

  constructor(
    private readonly source: PlanSource,
    private readonly funnel: ErrorFunnel,
  ) {
    this.#subscription = source.onDidChange(() => this.refresh());
  }

  get state(): PlanState | undefined {
    return this.#state;
  }

  refresh(): void {
    this.#changed.fire(undefined);
  }

  async getChildren(node?: PlanNode): Promise<PlanNode[]> {
    if (!node) return this.#rootsOf(await this.#load());
    if (node.type === 'plan') {
      const steps: PlanNode[] = node.plan.steps.map((step) => ({ type: 'step', plan: node.plan, step }));
      return node.plan.progress.length ? [...steps, { type: 'progress', plan: node.plan }] : steps;
    }
    if (node.type === 'progress') return node.plan.progress.map((entry) => ({ type: 'entry', plan: node.plan, entry }));
    return [];
  }

  async #load(): Promise<PlanState | undefined> {
    try {
      this.#state = await this.source.read();
      this.#kind = this.#state.kind;
      this.funnel.background('plan view', undefined);
    } catch (error) {
      this.#state = undefined;
      this.#kind = 'error';
      this.funnel.background('plan view', error);
    }
    this.#loadedAt = Date.now();
    this.#loads++;
    await setContextKey('agentm.plan.state', this.#kind);
    // "Retry failed step" is offered (palette, view title) only while some plan has a failed step.
    const failed =
      this.#state?.kind === 'ready' && this.#state.plans.some((p) => p.steps.some((s) => s.status === 'failed'));
    await setContextKey('agentm.plan.hasFailedStep', failed);
    return this.#state;
  }

  #rootsOf(state: PlanState | undefined): PlanNode[] {
    return state?.kind === 'ready' ? state.plans.map((plan) => ({ type: 'plan', plan })) : [];
  }

  /** The items the view shows now (from its last load; nothing is re-read). */
  async snapshot(): Promise<ViewSnapshot> {
    return {
      state: this.#kind,
      loadedAt: this.#loadedAt,
      loads: this.#loads,
      items: await snapshotItems(this, this.#rootsOf(this.#state)),
    };
  }

  getTreeItem(node: PlanNode): vscode.TreeItem {
    switch (node.type) {
      case 'plan': {
        const text = planText(node.plan);
        const item = new vscode.TreeItem(
          text.label,
          node.plan.active ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed,
        );
        item.id = `plan:${node.plan.name}${node.plan.active ? ':active' : ''}`;
        item.description = text.description;
        item.tooltip = text.tooltip;
        item.iconPath = new vscode.ThemeIcon(node.plan.active ? 'pinned' : 'checklist');
        item.contextValue = node.plan.active ? 'agentm.plan.active' : 'agentm.plan';
        item.resourceUri = node.plan.planUri;
        return item;
      }
      case 'step': {
        const text = stepText(node.step);
        const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
        item.id = `step:${node.plan.name}:${node.step.id}`;
        item.description = text.description;
        item.tooltip = text.tooltip;
        item.contextValue = text.contextValue;
        const icon = STEP_ICONS[node.step.status];
        item.iconPath = new vscode.ThemeIcon(icon.icon, icon.color ? new vscode.ThemeColor(icon.color) : undefined);
        const line = new vscode.Range(node.step.line, 0, node.step.line, 0);
        item.command = {
          command: 'vscode.open',
          title: 'Open step',
          arguments: [node.plan.planUri, { selection: line }],
        };
        return item;
      }
      case 'progress': {
        const item = new vscode.TreeItem('Latest progress', vscode.TreeItemCollapsibleState.Collapsed);
        item.id = `progress:${node.plan.name}`;
        item.description = `${node.plan.progress.length} entries`;
        item.iconPath = new vscode.ThemeIcon('history');
        item.contextValue = 'agentm.progress';
        return item;
      }
      case 'entry': {
        const text = progressText(node.entry);
        const item = new vscode.TreeItem(text.label, vscode.TreeItemCollapsibleState.None);
        item.id = `entry:${node.plan.name}:${node.entry.id}`;
        item.description = text.description;
        item.tooltip = text.tooltip;
        item.contextValue = text.contextValue;
        if (node.plan.progressUri)
          item.command = { command: 'vscode.open', title: 'Open progress', arguments: [node.plan.progressUri] };
        return item;
      }
    }
  }

  dispose(): void {
    this.#subscription.dispose();
    this.#changed.dispose();
  }
}

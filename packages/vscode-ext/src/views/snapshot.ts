import * as vscode from 'vscode';

/** A tree item as data: what the view shows for it (the inspect command hands this to tests). */
export interface ItemSnapshot {
  readonly label: string;
  readonly description: string | undefined;
  /** Codicon id of a ThemeIcon (`loading~spin`, `pass-filled`, …). */
  readonly icon: string | undefined;
  readonly color: string | undefined;
  readonly contextValue: string | undefined;
  readonly collapsible: 'none' | 'collapsed' | 'expanded';
  readonly tooltip: string | undefined;
  /** The command a click runs, and the resource it opens, if any. */
  readonly command: string | undefined;
  readonly resource: string | undefined;
  readonly children: readonly ItemSnapshot[];
}

const COLLAPSIBLE = {
  [vscode.TreeItemCollapsibleState.None]: 'none',
  [vscode.TreeItemCollapsibleState.Collapsed]: 'collapsed',
  [vscode.TreeItemCollapsibleState.Expanded]: 'expanded',
} as const;

function text(value: string | vscode.TreeItemLabel | vscode.MarkdownString | boolean | undefined): string | undefined {
  if (value === undefined || typeof value === 'boolean') return undefined;
  if (typeof value === 'string') return value;
  if (value instanceof vscode.MarkdownString) return value.value;
  return value.label;
}

/** Walks `nodes` and their children through the provider's own getTreeItem/getChildren. */
export async function snapshotItems<T>(
  provider: vscode.TreeDataProvider<T>,
  nodes: readonly T[],
): Promise<ItemSnapshot[]> {
  const out: ItemSnapshot[] = [];
  for (const node of nodes) {
    const item = await provider.getTreeItem(node);
    const collapsible = COLLAPSIBLE[item.collapsibleState ?? vscode.TreeItemCollapsibleState.None];
    const children =
      collapsible === 'none' ? [] : await snapshotItems(provider, (await provider.getChildren(node)) ?? []);
    const icon = item.iconPath instanceof vscode.ThemeIcon ? item.iconPath : undefined;
    const argument = item.command?.arguments?.[0];
    out.push({
      label: text(item.label) ?? '',
      description: text(item.description),
      icon: icon?.id,
      color: icon?.color?.id,
      contextValue: item.contextValue,
      collapsible,
      tooltip: text(item.tooltip),
      command: item.command?.command,
      resource: argument instanceof vscode.Uri ? argument.toString() : item.resourceUri?.toString(),
      children,
    });
  }
  return out;
}

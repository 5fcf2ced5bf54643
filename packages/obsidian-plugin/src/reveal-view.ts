import type { App } from 'obsidian';

/** Shows the view of `type`: the open one, else a new one in the right sidebar. */
export async function revealView(app: App, type: string): Promise<void> {
  const { workspace } = app;
  let leaf = workspace.getLeavesOfType(type)[0];
  if (!leaf) {
    leaf = workspace.getRightLeaf(false) ?? workspace.getLeaf(true);
    await leaf.setViewState({ type, active: true });
  }
  await workspace.revealLeaf(leaf);
}

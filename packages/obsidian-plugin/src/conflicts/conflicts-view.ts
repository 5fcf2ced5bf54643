import { readFile } from 'node:fs/promises';
import { Component, Notice, TFile, type WorkspaceLeaf } from 'obsidian';
import { contentHash } from '@agentm/core/write-protocol';
import { displayError } from '../errors.js';
import { confirmAction } from '../ui/confirm-modal.js';
import { DrawnView } from '../ui/drawn-view.js';
import { nameOf } from '../vault-paths.js';
import { renderConflictCard, type CardTexts } from './conflict-card.js';
import type { ConflictEntry, ConflictIndex } from './conflict-index.js';
import type { ConflictResolver, ResolveAction } from './resolver.js';

export const CONFLICTS_VIEW_TYPE = 'agentm-conflicts';

/** What the view needs from the plugin; getters, because the plugin rebuilds them when settings change. */
export interface ConflictsViewDeps {
  index(): ConflictIndex | undefined;
  resolver(): ConflictResolver | undefined;
}

const CONFIRM: Record<
  ResolveAction,
  { title: string; message: (copy: string, original: string) => string; confirmText: string }
> = {
  'keep-original': {
    title: 'Keep the original?',
    message: (copy, original) => `"${copy}" will be moved to the trash. "${original}" stays as it is.`,
    confirmText: 'Move copy to trash',
  },
  'keep-copy': {
    title: 'Keep this copy?',
    message: (copy, original) =>
      `"${original}" will be replaced by the text of "${copy}" shown in the diff, and the copy moved to the trash. The original's current text will be gone.`,
    confirmText: 'Replace original',
  },
  'merged-by-hand': {
    title: 'Remove the merged copy?',
    message: (copy, original) =>
      `"${copy}" will be moved to the trash, after AgentM checks that "${original}" changed since the copy appeared.`,
    confirmText: 'Move copy to trash',
  },
};

const DONE: Record<ResolveAction, string> = {
  'keep-original': 'kept the original',
  'keep-copy': 'kept the copy',
  'merged-by-hand': 'removed the merged copy',
};

/**
 * Every conflict copy, grouped by original, each with its diff and the three resolve actions. Redraws
 * when the conflict index changes; each draw lives in a child component, so its listeners end with it.
 */
export class ConflictsView extends DrawnView {
  override icon = 'git-compare';
  #action: Promise<void> = Promise.resolve();

  constructor(
    leaf: WorkspaceLeaf,
    private readonly deps: ConflictsViewDeps,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return CONFLICTS_VIEW_TYPE;
  }

  getDisplayText(): string {
    return 'AgentM conflicts';
  }

  protected override async onOpen(): Promise<void> {
    const index = this.deps.index();
    if (index) this.registerEvent(index.on('changed', () => this.#requestRender()));
    this.#requestRender();
    await index?.refresh();
  }

  /** Resolves when the latest action started from this view (resolve, bring into vault) has finished. */
  actionSettled(): Promise<void> {
    return this.#action;
  }

  #requestRender(): void {
    this.requestDraw((current) => this.#render(current), 'could not show the conflicts');
  }

  async #render(current: () => boolean): Promise<void> {
    const index = this.deps.index();
    const groups = index?.groups() ?? [];
    const texts = new Map<string, CardTexts | undefined>();
    for (const entry of groups.flatMap((g) => g.entries)) texts.set(entry.id, await this.#texts(entry));
    if (!current()) return;

    const draw = new Component();
    const root = createDiv({ cls: 'agentm-conflicts' });
    const header = root.createDiv({ cls: 'agentm-conflicts-header' });
    const count = groups.reduce((n, g) => n + g.entries.length, 0);
    header.createSpan({
      text: index
        ? count === 0
          ? 'No conflict copies.'
          : `${count} conflict ${count === 1 ? 'copy' : 'copies'}`
        : 'AgentM is starting…',
    });
    const refresh = header.createEl('button', { text: 'Refresh' });
    draw.registerDomEvent(refresh, 'click', () => void index?.refresh());
    for (const group of groups) {
      const section = root.createDiv({ cls: 'agentm-conflict-group' });
      const missing = group.entries.some((e) => e.source === 'vault' && !e.originalExists);
      section.createEl('h4', { text: missing ? `${group.original} (missing)` : group.original });
      for (const entry of group.entries) {
        const t = texts.get(entry.id);
        if (!t) continue;
        renderConflictCard(section, entry, t, this.#handlers(entry, t), draw);
      }
    }
    this.show(root, draw);
  }

  async #texts(entry: ConflictEntry): Promise<CardTexts | undefined> {
    const adapter = this.app.vault.adapter;
    try {
      const copy =
        entry.source === 'vault' ? await adapter.read(entry.copyPath) : await readFile(entry.copyPath, 'utf8');
      const original =
        entry.originalPath && (await adapter.exists(entry.originalPath))
          ? await adapter.read(entry.originalPath)
          : null;
      return {
        copy,
        original,
        shown: { copyHash: contentHash(copy), originalHash: original === null ? null : contentHash(original) },
      };
    } catch {
      return undefined; // removed since the index was built; the next rebuild drops it
    }
  }

  #handlers(entry: ConflictEntry, texts: CardTexts) {
    return {
      open: (which: 'original' | 'copy' | 'both') => void this.#open(entry, which),
      resolve: (action: ResolveAction) => (this.#action = this.#resolve(entry, texts, action)),
      bringIntoVault: () => (this.#action = this.#bringIntoVault(entry)),
    };
  }

  async #open(entry: ConflictEntry, which: 'original' | 'copy' | 'both'): Promise<void> {
    const file = (path: string | undefined) => {
      const f = path ? this.app.vault.getAbstractFileByPath(path) : null;
      return f instanceof TFile ? f : null;
    };
    const original = file(entry.originalPath);
    const copy = entry.source === 'vault' ? file(entry.copyPath) : null;
    if (which !== 'copy' && original) await this.app.workspace.getLeaf('tab').openFile(original);
    if (which !== 'original' && copy)
      await this.app.workspace.getLeaf(which === 'both' ? 'split' : 'tab').openFile(copy);
  }

  async #resolve(entry: ConflictEntry, texts: CardTexts, action: ResolveAction): Promise<void> {
    const resolver = this.deps.resolver();
    const original = entry.originalPath ?? '';
    const ask = CONFIRM[action];
    if (
      !resolver ||
      !(await confirmAction(this.app, {
        title: ask.title,
        message: ask.message(nameOf(entry.copyPath), original),
        confirmText: ask.confirmText,
      }))
    )
      return;
    try {
      const done = await (action === 'keep-original'
        ? resolver.keepOriginal(entry, texts.shown)
        : action === 'keep-copy'
          ? resolver.keepCopy(entry, texts.shown)
          : resolver.mergedByHand(entry, texts.shown));
      new Notice(
        `AgentM: ${DONE[action]} for "${original}".${done.logged ? ` Recorded in ${nameOf(done.logged)}.` : ''}`,
      );
    } catch (error) {
      displayError(error, `could not resolve "${nameOf(entry.copyPath)}"`);
    } finally {
      await this.deps.index()?.refresh();
    }
  }

  async #bringIntoVault(entry: ConflictEntry): Promise<void> {
    const resolver = this.deps.resolver();
    if (!resolver) return;
    try {
      const copyPath = await resolver.bringIntoVault(entry);
      this.deps.index()?.announce(copyPath);
      new Notice(`AgentM: copied "${entry.copyPath}" into the vault as "${copyPath}".`);
    } catch (error) {
      displayError(error, 'could not bring the file into the vault');
    }
  }
}

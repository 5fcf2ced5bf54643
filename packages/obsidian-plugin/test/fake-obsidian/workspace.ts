import type {
  Constructor,
  OpenViewState,
  PaneType,
  TFile as RealTFile,
  View as RealView,
  ViewCreator,
  ViewState,
  Workspace as RealWorkspace,
  WorkspaceLeaf as RealWorkspaceLeaf,
} from 'obsidian';
import './dom-helpers.js';
import { Events } from './events.js';
import { TFile } from './files.js';
import { EmptyView, FileView, MarkdownView, type View } from './views.js';
import type { Vault } from './vault.js';

/** What leaves need from the app (the fake App implements it). */
export interface LeafHost {
  readonly vault: Vault;
  readonly workspace: Workspace;
}

type Side = 'root' | 'left' | 'right';

type LeafUsed =
  | 'view'
  | 'openFile'
  | 'open'
  | 'getViewState'
  | 'setViewState'
  | 'detach'
  | 'getDisplayText'
  | 'getIcon'
  | 'isDeferred'
  | 'loadIfDeferred'
  | 'setPinned'
  | 'togglePinned'
  | 'onResize'
  | 'off'
  | 'offref'
  | 'trigger'
  | 'tryTrigger';

/** Real leaves and views are nominal (protected members); the fake's are structurally the same objects. */
const real = <T>(value: unknown): T => value as T;

/** Obsidian's `WorkspaceLeaf`: a pane slot holding one view; switching views closes the old one. */
export class WorkspaceLeaf extends Events implements Pick<RealWorkspaceLeaf, LeafUsed> {
  readonly app: LeafHost;
  readonly side: Side;
  parent: unknown = null;
  view: RealView;
  containerEl: HTMLElement;
  hoverPopover = null;

  constructor(app: LeafHost, side: Side) {
    super();
    this.app = app;
    this.side = side;
    this.containerEl = app.workspace.containerEl.createDiv({ cls: 'workspace-leaf', attr: { 'data-side': side } });
    const empty = new EmptyView(this);
    this.view = real(empty);
    void empty.__open(this.containerEl);
  }

  get isDeferred(): boolean {
    return false;
  }

  async loadIfDeferred(): Promise<void> {}

  async setViewState(viewState: ViewState, _eState?: unknown): Promise<void> {
    const creator = this.app.workspace.__viewCreator(viewState.type);
    if (!creator) throw new Error(`No view is registered for type "${viewState.type}"`);
    await this.open(creator(real<RealWorkspaceLeaf>(this)));
    if (viewState.active) this.app.workspace.setActiveLeaf(real(this));
  }

  getViewState(): ViewState {
    return { type: this.view.getViewType(), state: this.view.getState() };
  }

  async open(view: RealView): Promise<RealView> {
    await this.#view().__close();
    this.view = view;
    await real<View>(view).__open(this.containerEl);
    this.app.workspace.trigger('layout-change');
    return view;
  }

  /** Opens `file` in a Markdown view (the fake has one file view kind), makes the leaf active. */
  async openFile(file: RealTFile, _openState?: OpenViewState): Promise<void> {
    if (!(this.#view() instanceof MarkdownView)) await this.open(real(new MarkdownView(this)));
    await real<MarkdownView>(this.view).__loadFile(file);
    this.app.workspace.__fileOpened(file);
    this.app.workspace.setActiveLeaf(real(this));
    this.app.workspace.trigger('file-open', file);
  }

  detach(): void {
    void this.#view().__close();
    this.app.workspace.__removeLeaf(this);
    this.containerEl.detach();
  }

  getDisplayText(): string {
    return this.view.getDisplayText();
  }

  getIcon(): string {
    return this.view.getIcon();
  }

  setPinned(_pinned: boolean): void {}
  togglePinned(): void {}
  onResize(): void {}

  #view(): View {
    return real<View>(this.view);
  }
}

type WorkspaceUsed =
  | 'containerEl'
  | 'layoutReady'
  | 'activeLeaf'
  | 'onLayoutReady'
  | 'getLeaf'
  | 'getRightLeaf'
  | 'getLeftLeaf'
  | 'getLeavesOfType'
  | 'detachLeavesOfType'
  | 'revealLeaf'
  | 'setActiveLeaf'
  | 'iterateAllLeaves'
  | 'iterateRootLeaves'
  | 'getActiveViewOfType'
  | 'getActiveFile'
  | 'openLinkText'
  | 'off'
  | 'offref'
  | 'trigger'
  | 'tryTrigger';

/** Obsidian's `Workspace`: leaves, view types, the active leaf and layout readiness. */
export class Workspace extends Events implements Pick<RealWorkspace, WorkspaceUsed> {
  readonly app: LeafHost;
  containerEl: HTMLElement;
  layoutReady = false;
  activeLeaf: RealWorkspaceLeaf | null = null;
  readonly #leaves: WorkspaceLeaf[] = [];
  readonly #creators = new Map<string, ViewCreator>();
  readonly #onReady: Array<() => unknown> = [];
  /** The file of the most recently active file view (what `getActiveFile` falls back to). */
  #lastFile: RealTFile | null = null;

  constructor(app: LeafHost, containerEl: HTMLElement) {
    super();
    this.app = app;
    this.containerEl = containerEl;
  }

  /** Runs `callback` now when the layout is ready, else once it becomes ready. */
  onLayoutReady(callback: () => unknown): void {
    if (this.layoutReady) callback();
    else this.#onReady.push(callback);
  }

  getLeaf(newLeaf?: PaneType | boolean, _direction?: string): RealWorkspaceLeaf {
    if (newLeaf === undefined || newLeaf === false) {
      const candidates = [real<WorkspaceLeaf | null>(this.activeLeaf), ...this.#leaves];
      const reusable = candidates.find(
        (l) => l && l.side === 'root' && (l.view.navigation || real<View>(l.view) instanceof EmptyView),
      );
      if (reusable) return real(reusable);
    }
    return real(this.#create('root'));
  }

  getRightLeaf(_split: boolean): RealWorkspaceLeaf | null {
    return real(this.#create('right'));
  }

  getLeftLeaf(_split: boolean): RealWorkspaceLeaf | null {
    return real(this.#create('left'));
  }

  getLeavesOfType(viewType: string): RealWorkspaceLeaf[] {
    return real(this.#leaves.filter((l) => l.view.getViewType() === viewType));
  }

  detachLeavesOfType(viewType: string): void {
    for (const leaf of this.getLeavesOfType(viewType)) leaf.detach();
  }

  async revealLeaf(leaf: RealWorkspaceLeaf): Promise<void> {
    this.setActiveLeaf(leaf);
  }

  /** Makes `leaf` active; when it shows another file than the last active one, that is `file-open` too. */
  setActiveLeaf(leaf: RealWorkspaceLeaf, _params?: unknown): void {
    if (this.activeLeaf === leaf) return;
    this.activeLeaf = leaf;
    this.trigger('active-leaf-change', leaf);
    const view: unknown = leaf.view;
    const file = view instanceof FileView ? view.file : null;
    if (file && file !== this.#lastFile) {
      this.#lastFile = file;
      this.trigger('file-open', file);
    }
  }

  iterateAllLeaves(callback: (leaf: RealWorkspaceLeaf) => unknown): void {
    for (const leaf of [...this.#leaves]) callback(real(leaf));
  }

  iterateRootLeaves(callback: (leaf: RealWorkspaceLeaf) => unknown): void {
    for (const leaf of this.#leaves.filter((l) => l.side === 'root')) callback(real(leaf));
  }

  getActiveViewOfType<T extends RealView>(type: Constructor<T>): T | null {
    const view: unknown = this.activeLeaf?.view;
    return view instanceof (type as unknown as abstract new () => unknown) ? (view as T) : null;
  }

  /** The active file view's file; when the active view shows no file, the most recently active file. */
  getActiveFile(): RealTFile | null {
    const view: unknown = this.activeLeaf?.view;
    return view instanceof FileView ? view.file : this.#lastFile;
  }

  /** Opens a path (with or without `.md`) or a unique file name, like a wiki link. */
  async openLinkText(
    linktext: string,
    _sourcePath: string,
    newLeaf?: PaneType | boolean,
    openViewState?: OpenViewState,
  ): Promise<void> {
    const vault = this.app.vault;
    const file =
      vault.getFileByPath(linktext) ??
      vault.getFileByPath(`${linktext}.md`) ??
      (() => {
        const named = vault.getFiles().filter((f) => f.basename === linktext || f.name === linktext);
        return named.length === 1 ? named[0]! : null;
      })();
    if (!(file instanceof TFile)) throw new Error(`No file matches the link "${linktext}"`);
    await this.getLeaf(newLeaf).openFile(file, openViewState);
  }

  /** Internal to the app: a leaf opened `file` (it is the active file from now on). */
  __fileOpened(file: RealTFile): void {
    this.#lastFile = file;
  }

  /** Internal to the app: the layout finished loading. */
  __setLayoutReady(): void {
    this.layoutReady = true;
    for (const callback of this.#onReady.splice(0)) callback();
  }

  /** Internal to the app (Plugin.registerView). */
  __registerView(type: string, creator: ViewCreator): void {
    if (this.#creators.has(type)) throw new Error(`Attempting to register an existing view type "${type}"`);
    this.#creators.set(type, creator);
  }

  /** Internal to the app: the plugin that registered `type` unloaded; its open views are closed. */
  __unregisterView(type: string): void {
    this.#creators.delete(type);
    for (const leaf of this.#leaves.filter((l) => l.view.getViewType() === type))
      void leaf.open(real(new EmptyView(leaf)));
  }

  __viewCreator(type: string): ViewCreator | undefined {
    return this.#creators.get(type);
  }

  __removeLeaf(leaf: WorkspaceLeaf): void {
    const i = this.#leaves.indexOf(leaf);
    if (i >= 0) this.#leaves.splice(i, 1);
    if (this.activeLeaf === real(leaf)) this.activeLeaf = null;
  }

  #create(side: Side): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app, side);
    this.#leaves.push(leaf);
    return leaf;
  }
}

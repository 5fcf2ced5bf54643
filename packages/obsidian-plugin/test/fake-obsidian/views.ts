import type {
  App,
  Editor as RealEditor,
  FileView as RealFileView,
  ItemView as RealItemView,
  Menu,
  Scope,
  TFile as RealTFile,
  View as RealView,
  ViewStateResult,
  WorkspaceLeaf as RealWorkspaceLeaf,
} from 'obsidian';
import { Component } from './component.js';
import './dom-helpers.js';
import { setIcon } from './util.js';
import type { WorkspaceLeaf } from './workspace.js';

/**
 * Obsidian's `View`: a Component living in a leaf. The leaf opens it (`load()` then `onOpen()`) and
 * closes it (`onClose()` then `unload()`, which removes everything the view registered).
 */
type ViewUsed =
  | 'app'
  | 'icon'
  | 'navigation'
  | 'containerEl'
  | 'getViewType'
  | 'getDisplayText'
  | 'getState'
  | 'setState'
  | 'getIcon'
  | 'onResize'
  | 'load'
  | 'unload'
  | 'register'
  | 'registerEvent'
  | 'registerDomEvent'
  | 'registerInterval'
  | 'addChild'
  | 'removeChild';

export abstract class View extends Component implements Pick<RealView, ViewUsed> {
  app: App;
  icon = '';
  navigation = false;
  leaf: RealWorkspaceLeaf;
  containerEl: HTMLElement;
  scope: Scope | null = null;

  constructor(leaf: WorkspaceLeaf | RealWorkspaceLeaf) {
    super();
    this.leaf = leaf as unknown as RealWorkspaceLeaf;
    this.app = (leaf as WorkspaceLeaf).app as unknown as App;
    this.containerEl = createDiv('workspace-leaf-content');
  }

  protected async onOpen(): Promise<void> {}
  protected async onClose(): Promise<void> {}
  abstract getViewType(): string;
  abstract getDisplayText(): string;

  getState(): Record<string, unknown> {
    return {};
  }
  async setState(_state: unknown, _result: ViewStateResult): Promise<void> {}
  getEphemeralState(): Record<string, unknown> {
    return {};
  }
  setEphemeralState(_state: unknown): void {}
  getIcon(): string {
    return this.icon;
  }
  onResize(): void {}
  onPaneMenu(_menu: Menu, _source: string): void {}

  /** Internal to the app: attach, load, then `onOpen`. */
  async __open(parentEl: HTMLElement): Promise<void> {
    this.containerEl.setAttr('data-type', this.getViewType());
    parentEl.appendChild(this.containerEl);
    this.load();
    await this.onOpen();
  }

  /** Internal to the app: `onClose`, unload (every registered cleanup runs), detach. */
  async __close(): Promise<void> {
    await this.onClose();
    this.unload();
    this.containerEl.detach();
  }
}

/** Obsidian's `ItemView`: a header with actions and `contentEl` (`containerEl.children[1]`). */
export abstract class ItemView extends View implements Pick<RealItemView, ViewUsed | 'contentEl' | 'addAction'> {
  contentEl: HTMLElement;
  #actionsEl: HTMLElement;

  constructor(leaf: WorkspaceLeaf | RealWorkspaceLeaf) {
    super(leaf);
    const header = this.containerEl.createDiv('view-header');
    this.#actionsEl = header.createDiv('view-actions');
    this.contentEl = this.containerEl.createDiv('view-content');
  }

  addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const el = this.#actionsEl.createEl('a', { cls: ['clickable-icon', 'view-action'], attr: { 'aria-label': title } });
    setIcon(el, icon);
    el.addEventListener('click', (evt) => void callback(evt as MouseEvent));
    return el;
  }
}

/** A view of one file (`file`); opening a file calls `onLoadFile`. */
export abstract class FileView
  extends ItemView
  implements Pick<RealFileView, ViewUsed | 'contentEl' | 'file' | 'allowNoFile'>
{
  file: RealTFile | null = null;
  allowNoFile = false;
  override navigation = true;

  override getDisplayText(): string {
    return this.file?.basename ?? 'No file';
  }

  async onLoadFile(_file: RealTFile): Promise<void> {}
  async onUnloadFile(_file: RealTFile): Promise<void> {}

  /** Internal to the app: switch the view to `file`. */
  async __loadFile(file: RealTFile): Promise<void> {
    if (this.file) await this.onUnloadFile(this.file);
    this.file = file;
    await this.onLoadFile(file);
  }
}

/** The slice of Obsidian's `Editor` a plugin reads: the text and the selection (offsets here). */
export class Editor implements Pick<
  RealEditor,
  'getValue' | 'setValue' | 'getSelection' | 'replaceSelection' | 'somethingSelected'
> {
  #value = '';
  #from = 0;
  #to = 0;

  getValue(): string {
    return this.#value;
  }
  setValue(content: string): void {
    this.#value = content;
    this.#from = this.#to = 0;
  }
  getSelection(): string {
    return this.#value.slice(this.#from, this.#to);
  }
  replaceSelection(replacement: string): void {
    this.#value = this.#value.slice(0, this.#from) + replacement + this.#value.slice(this.#to);
    this.#from = this.#to = this.#from + replacement.length;
  }
  somethingSelected(): boolean {
    return this.#to > this.#from;
  }
  /** Test aid (the real editor selects by line/ch positions): select `[from, to)` by offset. */
  selectOffsets(from: number, to: number): void {
    this.#from = from;
    this.#to = to;
  }
}

/** A Markdown editor leaf: its editor holds the file's text. */
export class MarkdownView extends FileView {
  editor = new Editor();

  getViewType(): string {
    return 'markdown';
  }

  override async onLoadFile(file: RealTFile): Promise<void> {
    this.editor.setValue(await file.vault.read(file));
  }
}

/** What a leaf shows when nothing is open in it. */
export class EmptyView extends ItemView {
  getViewType(): string {
    return 'empty';
  }
  getDisplayText(): string {
    return 'New tab';
  }
}

import type {
  App as RealApp,
  Command,
  FileManager as RealFileManager,
  PluginManifest,
  TAbstractFile as RealTAbstractFile,
} from 'obsidian';
import { FileSystemAdapter } from './adapter.js';
import './dom-helpers.js';
import type { Plugin } from './plugin.js';
import type { SettingTab } from './setting.js';
import { Vault } from './vault.js';
import { MarkdownView } from './views.js';
import { Workspace } from './workspace.js';

/** Obsidian's `FileManager`: the user's trash preference (here: system trash, else `.trash`). */
export class FileManager implements Pick<RealFileManager, 'trashFile' | 'renameFile'> {
  constructor(private readonly vault: Vault) {}

  async trashFile(file: RealTAbstractFile): Promise<void> {
    await this.vault.trash(file, true);
  }

  async renameFile(file: RealTAbstractFile, newPath: string): Promise<void> {
    await this.vault.rename(file, newPath);
  }
}

/** The app's command registry (private in the real API): what the command palette runs. */
export class CommandRegistry {
  readonly commands = new Map<string, Command>();
  /** Test aid: what the last command run returned, settled (a callback's promise is its work being done). */
  __lastRun: Promise<unknown> = Promise.resolve();

  constructor(private readonly app: FakeApp) {}

  __add(command: Command): void {
    this.commands.set(command.id, command);
  }

  __remove(id: string): void {
    this.commands.delete(id);
  }

  /** Runs a command as the palette would; `false` when it is missing or not available now. */
  executeCommandById(id: string): boolean {
    const command = this.commands.get(id);
    if (!command) return false;
    if (command.editorCallback || command.editorCheckCallback) {
      const view: unknown = this.app.workspace.activeLeaf?.view;
      if (!(view instanceof MarkdownView)) return false;
      if (command.editorCheckCallback)
        return command.editorCheckCallback(false, view.editor as never, view as never) !== false;
      this.__lastRun = Promise.resolve(command.editorCallback?.(view.editor as never, view as never));
      return true;
    }
    if (command.checkCallback) return command.checkCallback(false) !== false;
    this.__lastRun = Promise.resolve(command.callback?.());
    return command.callback !== undefined;
  }
}

/** The settings window: one container per plugin tab. */
export class SettingRegistry {
  readonly tabs: SettingTab[] = [];

  __add(tab: SettingTab): void {
    this.tabs.push(tab);
  }

  __remove(tab: SettingTab): void {
    tab.hide();
    tab.containerEl.detach();
    this.tabs.splice(this.tabs.indexOf(tab), 1);
  }

  /** Opens a tab as the user would: attached to the document, `display()` called. */
  openTab(tab: SettingTab): HTMLElement {
    document.body.appendChild(tab.containerEl);
    tab.display();
    return tab.containerEl;
  }
}

/**
 * Obsidian's `App` over a real directory. The fake adds what the real app keeps private but a test must
 * drive: `commands`, `setting`, the ribbon/status bar containers, and the start-up sequence
 * (`startApp` → `loadPlugin` → `finishStartup`).
 */
export class FakeApp implements Pick<
  RealApp,
  'vault' | 'lastEvent' | 'isDarkMode' | 'loadLocalStorage' | 'saveLocalStorage'
> {
  readonly vault: Vault;
  readonly workspace: Workspace;
  readonly fileManager: FileManager;
  readonly commands: CommandRegistry;
  readonly setting = new SettingRegistry();
  readonly containerEl: HTMLElement;
  readonly __ui: { readonly ribbon: HTMLElement; readonly statusBar: HTMLElement };
  lastEvent = null;
  readonly #storage = new Map<string, unknown>();

  constructor(vaultPath: string) {
    this.containerEl = document.body.createDiv('app-container');
    this.__ui = {
      ribbon: this.containerEl.createDiv('side-dock-ribbon'),
      statusBar: this.containerEl.createDiv('status-bar'),
    };
    this.vault = new Vault(new FileSystemAdapter(vaultPath));
    this.workspace = new Workspace(this, this.containerEl.createDiv('workspace'));
    this.fileManager = new FileManager(this.vault);
    this.commands = new CommandRegistry(this);
  }

  isDarkMode(): boolean {
    return false;
  }

  loadLocalStorage(key: string): unknown {
    return this.#storage.get(key) ?? null;
  }

  saveLocalStorage(key: string, data: unknown): void {
    if (data === null) this.#storage.delete(key);
    else this.#storage.set(key, data);
  }
}

export { FakeApp as App };

/** Step 1 of start-up: the app and its (not yet indexed) vault over `vaultPath`. */
export function startApp(vaultPath: string): FakeApp {
  return new FakeApp(vaultPath);
}

/** Step 2: constructs and loads a plugin as the app does, awaiting an async `onload`. */
export async function loadPlugin<P extends object>(
  app: FakeApp,
  PluginClass: new (app: never, manifest: PluginManifest) => P,
  manifest: PluginManifest,
  configure?: (plugin: P) => void,
): Promise<P> {
  const plugin = new PluginClass(app as never, { dir: `.obsidian/plugins/${manifest.id}`, ...manifest });
  configure?.(plugin);
  const fake = plugin as unknown as Plugin;
  fake.load();
  await fake.__onloadResult;
  return plugin;
}

/** Disables a plugin as the app does: `unload()` runs every cleanup it registered. */
export function unloadPlugin(plugin: object): void {
  (plugin as unknown as Plugin).unload();
}

/** Step 3: the vault indexes the disk (a `create` per file, as on launch), then the layout is ready. */
export async function finishStartup(app: FakeApp): Promise<void> {
  await app.vault.loadFromDisk();
  app.workspace.__setLayoutReady();
}

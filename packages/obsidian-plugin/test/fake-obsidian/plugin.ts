import type {
  App,
  Command,
  Plugin as RealPlugin,
  PluginManifest,
  PluginSettingTab as RealPluginSettingTab,
  ViewCreator,
} from 'obsidian';
import { Component } from './component.js';
import './dom-helpers.js';
import type { SettingTab } from './setting.js';
import { setIcon } from './util.js';
import type { FakeApp } from './app.js';

/**
 * Obsidian's `Plugin`: everything it adds to the app (ribbon icon, status bar item, commands, setting
 * tab, view types) is removed when it unloads, as are its registered events, DOM listeners and intervals.
 */
type PluginUsed =
  | 'app'
  | 'manifest'
  | 'onload'
  | 'addRibbonIcon'
  | 'addStatusBarItem'
  | 'addCommand'
  | 'removeCommand'
  | 'addSettingTab'
  | 'registerView'
  | 'loadData'
  | 'saveData'
  | 'onUserEnable'
  | 'load'
  | 'unload'
  | 'onunload'
  | 'register'
  | 'registerEvent'
  | 'registerDomEvent'
  | 'registerInterval'
  | 'addChild'
  | 'removeChild';

export abstract class Plugin extends Component implements Pick<RealPlugin, PluginUsed> {
  app: App;
  manifest: PluginManifest;
  settings?: unknown;

  constructor(app: App, manifest: PluginManifest) {
    super();
    this.app = app;
    this.manifest = manifest;
  }

  #fake(): FakeApp {
    return this.app as unknown as FakeApp;
  }

  // eslint-disable-next-line @typescript-eslint/no-misused-promises -- Obsidian declares Plugin.onload so (a plugin may load asynchronously)
  override onload(): Promise<void> | void {}

  addRibbonIcon(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const el = this.#fake().__ui.ribbon.createDiv({
      cls: ['side-dock-ribbon-action', 'clickable-icon'],
      attr: { 'aria-label': title },
    });
    setIcon(el, icon);
    el.addEventListener('click', (evt) => void callback(evt as MouseEvent));
    this.register(() => el.detach());
    return el;
  }

  addStatusBarItem(): HTMLElement {
    const el = this.#fake().__ui.statusBar.createDiv({ cls: ['status-bar-item', `plugin-${this.manifest.id}`] });
    this.register(() => el.detach());
    return el;
  }

  addCommand(command: Command): Command {
    const full = {
      ...command,
      id: `${this.manifest.id}:${command.id}`,
      name: `${this.manifest.name}: ${command.name}`,
    };
    this.#fake().commands.__add(full);
    this.register(() => this.#fake().commands.__remove(full.id));
    return full;
  }

  removeCommand(commandId: string): void {
    this.#fake().commands.__remove(`${this.manifest.id}:${commandId}`);
  }

  addSettingTab(settingTab: RealPluginSettingTab): void {
    const tab = settingTab as unknown as SettingTab;
    this.#fake().setting.__add(tab);
    this.register(() => this.#fake().setting.__remove(tab));
  }

  registerView(type: string, viewCreator: ViewCreator): void {
    this.#fake().workspace.__registerView(type, viewCreator);
    this.register(() => this.#fake().workspace.__unregisterView(type));
  }

  /** `<configDir>/plugins/<id>/data.json`, parsed; `null` when absent. */
  async loadData(): Promise<unknown> {
    const path = this.#dataPath();
    if (!(await this.app.vault.adapter.exists(path))) return null;
    return JSON.parse(await this.app.vault.adapter.read(path)) as unknown;
  }

  async saveData(data: unknown): Promise<void> {
    const path = this.#dataPath();
    await this.app.vault.adapter.mkdir(path.slice(0, path.lastIndexOf('/')));
    await this.app.vault.adapter.write(path, JSON.stringify(data, null, 2));
  }

  onUserEnable(): void {}

  #dataPath(): string {
    return `${this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`}/data.json`;
  }
}

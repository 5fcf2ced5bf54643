import type {
  App,
  BaseComponent as RealBaseComponent,
  ButtonComponent as RealButtonComponent,
  ColorComponent,
  DisplayValueComponent,
  DropdownComponent,
  ExtraButtonComponent,
  MomentFormatComponent,
  ProgressBarComponent,
  SearchComponent,
  SliderComponent,
  Plugin,
  PluginSettingTab as RealPluginSettingTab,
  Setting as RealSetting,
  TextAreaComponent as RealTextAreaComponent,
  TextComponent as RealTextComponent,
  ToggleComponent as RealToggleComponent,
  TooltipOptions,
} from 'obsidian';
import './dom-helpers.js';
import { ButtonComponent, TextAreaComponent, TextComponent, ToggleComponent } from './components.js';
import { notInFake } from './util.js';

/** Obsidian's `Setting`: one row (`.setting-item`) with name, description and controls. Unmodelled controls throw. */
export class Setting implements RealSetting {
  settingEl: HTMLElement;
  infoEl: HTMLElement;
  nameEl: HTMLElement;
  descEl: HTMLElement;
  controlEl: HTMLElement;
  components: RealBaseComponent[] = [];
  errorEl: HTMLElement | null = null;

  constructor(containerEl: HTMLElement) {
    this.settingEl = containerEl.createDiv('setting-item');
    this.infoEl = this.settingEl.createDiv('setting-item-info');
    this.nameEl = this.infoEl.createDiv('setting-item-name');
    this.descEl = this.infoEl.createDiv('setting-item-description');
    this.controlEl = this.settingEl.createDiv('setting-item-control');
  }

  setName(name: string | DocumentFragment): this {
    this.nameEl.setText(name);
    return this;
  }
  setDesc(desc: string | DocumentFragment): this {
    this.descEl.setText(desc);
    return this;
  }
  setClass(cls: string): this {
    this.settingEl.addClass(cls);
    return this;
  }
  setHeading(): this {
    this.settingEl.addClass('setting-item-heading');
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.settingEl.toggleClass('is-disabled', disabled);
    for (const c of this.components) c.setDisabled(disabled);
    return this;
  }
  addButton(cb: (component: RealButtonComponent) => unknown): this {
    return this.#add(new ButtonComponent(this.controlEl), cb);
  }
  addToggle(cb: (component: RealToggleComponent) => unknown): this {
    return this.#add(new ToggleComponent(this.controlEl), cb);
  }
  addText(cb: (component: RealTextComponent) => unknown): this {
    return this.#add(new TextComponent(this.controlEl), cb);
  }
  addTextArea(cb: (component: RealTextAreaComponent) => unknown): this {
    return this.#add(new TextAreaComponent(this.controlEl), cb);
  }
  then(cb: (setting: this) => unknown): this {
    cb(this);
    return this;
  }
  setErrorMessage(message: string | null): this {
    if (message === null) {
      this.errorEl?.detach();
      this.errorEl = null;
    } else {
      this.errorEl ??= this.infoEl.createDiv('setting-item-error');
      this.errorEl.setText(message);
    }
    return this;
  }
  setTooltip(tooltip: string, _options?: TooltipOptions): this {
    this.settingEl.setAttr('aria-label', tooltip);
    return this;
  }
  addDisplayValue(_cb: (component: DisplayValueComponent) => unknown): this {
    return notInFake('Setting.addDisplayValue');
  }
  addExtraButton(_cb: (component: ExtraButtonComponent) => unknown): this {
    return notInFake('Setting.addExtraButton');
  }
  addComponent<T extends RealBaseComponent>(_cb: (el: HTMLElement) => T): this {
    return notInFake('Setting.addComponent');
  }
  addSearch(_cb: (component: SearchComponent) => unknown): this {
    return notInFake('Setting.addSearch');
  }
  addMomentFormat(_cb: (component: MomentFormatComponent) => unknown): this {
    return notInFake('Setting.addMomentFormat');
  }
  addDropdown(_cb: (component: DropdownComponent) => unknown): this {
    return notInFake('Setting.addDropdown');
  }
  addColorPicker(_cb: (component: ColorComponent) => unknown): this {
    return notInFake('Setting.addColorPicker');
  }
  addProgressBar(_cb: (component: ProgressBarComponent) => unknown): this {
    return notInFake('Setting.addProgressBar');
  }
  addSlider(_cb: (component: SliderComponent) => unknown): this {
    return notInFake('Setting.addSlider');
  }
  clear(): this {
    this.controlEl.empty();
    this.components = [];
    return this;
  }

  #add<C extends RealBaseComponent>(component: C, cb: (component: C) => unknown): this {
    this.components.push(component);
    cb(component);
    return this;
  }
}

export abstract class SettingTab {
  icon = 'settings';
  app: App;
  containerEl: HTMLElement;

  constructor(app: App) {
    this.app = app;
    this.containerEl = createDiv('vertical-tab-content');
  }

  display(): void {}

  hide(): void {
    this.containerEl.empty();
  }
}

export abstract class PluginSettingTab
  extends SettingTab
  implements Pick<RealPluginSettingTab, 'app' | 'containerEl' | 'icon' | 'display' | 'hide'>
{
  plugin: Plugin;

  constructor(app: App, plugin: Plugin) {
    super(app);
    this.plugin = plugin;
  }
}

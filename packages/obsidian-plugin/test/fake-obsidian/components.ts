import type {
  BaseComponent as RealBaseComponent,
  ButtonComponent as RealButtonComponent,
  TextAreaComponent as RealTextAreaComponent,
  TextComponent as RealTextComponent,
  ToggleComponent as RealToggleComponent,
  TooltipOptions,
} from 'obsidian';
import './dom-helpers.js';
import { setIcon } from './util.js';

/** Obsidian's setting controls: buttons, text inputs and toggles, wired to their DOM events like the app's. */
export abstract class BaseComponent implements RealBaseComponent {
  disabled = false;

  then(cb: (component: this) => unknown): this {
    cb(this);
    return this;
  }

  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    return this;
  }
}

export class ButtonComponent extends BaseComponent implements RealButtonComponent {
  buttonEl: HTMLButtonElement;

  constructor(containerEl: HTMLElement) {
    super();
    this.buttonEl = containerEl.createEl('button');
  }

  override setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    this.buttonEl.disabled = disabled;
    return this;
  }
  setCta(): this {
    this.buttonEl.addClass('mod-cta');
    return this;
  }
  removeCta(): this {
    this.buttonEl.removeClass('mod-cta');
    return this;
  }
  setWarning(): this {
    this.buttonEl.addClass('mod-warning');
    return this;
  }
  setDestructive(): this {
    this.buttonEl.addClass('mod-destructive');
    return this;
  }
  removeDestructive(): this {
    this.buttonEl.removeClass('mod-destructive');
    return this;
  }
  setTooltip(tooltip: string, _options?: TooltipOptions): this {
    this.buttonEl.setAttr('aria-label', tooltip);
    return this;
  }
  setButtonText(name: string): this {
    this.buttonEl.setText(name);
    return this;
  }
  setIcon(icon: string): this {
    setIcon(this.buttonEl, icon);
    return this;
  }
  setClass(cls: string): this {
    this.buttonEl.addClass(cls);
    return this;
  }
  onClick(callback: (evt: MouseEvent) => unknown): this {
    this.buttonEl.addEventListener('click', (evt) => void callback(evt as MouseEvent));
    return this;
  }
}

export abstract class ValueComponent<T> extends BaseComponent {
  registerOptionListener(listeners: Record<string, (value?: T) => T>, key: string): this {
    listeners[key] = (value?: T) => {
      if (value !== undefined) this.setValue(value);
      return this.getValue();
    };
    return this;
  }
  abstract getValue(): T;
  abstract setValue(value: T): this;
}

export class AbstractTextComponent<T extends HTMLInputElement | HTMLTextAreaElement> extends ValueComponent<string> {
  inputEl: T;
  #onChange: ((value: string) => unknown) | undefined;

  constructor(inputEl: T) {
    super();
    this.inputEl = inputEl;
    this.inputEl.addEventListener('input', () => this.onChanged());
  }

  override setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    this.inputEl.disabled = disabled;
    return this;
  }
  getValue(): string {
    return this.inputEl.value;
  }
  setValue(value: string): this {
    this.inputEl.value = value;
    return this;
  }
  setPlaceholder(placeholder: string): this {
    this.inputEl.setAttribute('placeholder', placeholder);
    return this;
  }
  onChanged(): void {
    this.#onChange?.(this.getValue());
  }
  onChange(callback: (value: string) => unknown): this {
    this.#onChange = callback;
    return this;
  }
}

export class TextComponent extends AbstractTextComponent<HTMLInputElement> implements RealTextComponent {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('input', { type: 'text' }));
  }
}

export class TextAreaComponent extends AbstractTextComponent<HTMLTextAreaElement> implements RealTextAreaComponent {
  constructor(containerEl: HTMLElement) {
    super(containerEl.createEl('textarea'));
  }
}

/** A click on `toggleEl` flips the value and calls the change callback, as in the app. */
export class ToggleComponent extends ValueComponent<boolean> implements RealToggleComponent {
  toggleEl: HTMLElement;
  #value = false;
  #onChange: ((value: boolean) => unknown) | undefined;

  constructor(containerEl: HTMLElement) {
    super();
    this.toggleEl = containerEl.createDiv('checkbox-container');
    this.toggleEl.createEl('input', { type: 'checkbox' });
    this.toggleEl.addEventListener('click', () => this.onClick());
  }

  getValue(): boolean {
    return this.#value;
  }
  setValue(on: boolean): this {
    this.#value = on;
    this.toggleEl.toggleClass('is-enabled', on);
    return this;
  }
  setTooltip(tooltip: string, _options?: TooltipOptions): this {
    this.toggleEl.setAttr('aria-label', tooltip);
    return this;
  }
  onClick(): void {
    if (this.disabled) return;
    this.setValue(!this.#value);
    this.#onChange?.(this.#value);
  }
  onChange(callback: (value: boolean) => unknown): this {
    this.#onChange = callback;
    return this;
  }
}

import type {
  App,
  FuzzyMatch,
  FuzzySuggestModal as RealFuzzySuggestModal,
  Instruction,
  Modal as RealModal,
  Scope,
  SuggestModal as RealSuggestModal,
} from 'obsidian';
import './dom-helpers.js';
import { prepareFuzzySearch } from './util.js';

/** Test-side listeners for the next modal to open (see `nextModal`). */
const openListeners: ((modal: Modal) => void)[] = [];
/** Modals open now (see `modalsSettled`). */
const openModals = new Set<Modal>();

/** Test aid: resolves with the next modal that opens, once it is drawn (`onOpen` and, for a prompt, its first suggestions done). */
export function nextModal(): Promise<Modal> {
  return new Promise((resolve) => openListeners.push(resolve));
}

/** Test aid: resolves once every open modal has finished drawing (e.g. the suggestions for what was just typed). */
export async function modalsSettled(): Promise<void> {
  await Promise.all([...openModals].map((m) => m.__drawn()));
}

/**
 * Obsidian's `Modal`: `open()` attaches `.modal-container > .modal` (title, content, close button) to
 * the body and calls `onOpen`; `close()` calls `onClose` and removes it. Escape closes it.
 */
export class Modal implements RealModal {
  app: App;
  scope = {} as Scope;
  containerEl: HTMLElement;
  modalEl: HTMLElement;
  titleEl: HTMLElement;
  contentEl: HTMLElement;
  shouldRestoreSelection = true;
  #closeCallback: (() => unknown) | undefined;
  #open = false;
  #onOpen: Promise<unknown> = Promise.resolve();

  constructor(app: App) {
    this.app = app;
    this.containerEl = createDiv('modal-container');
    this.containerEl.createDiv('modal-bg');
    this.modalEl = this.containerEl.createDiv('modal');
    const close = this.modalEl.createDiv('modal-close-button');
    close.addEventListener('click', () => this.close());
    this.titleEl = this.modalEl.createDiv('modal-title');
    this.contentEl = this.modalEl.createDiv('modal-content');
    this.containerEl.addEventListener('keydown', (evt) => {
      if ((evt as KeyboardEvent).key === 'Escape') this.close();
    });
  }

  open(): void {
    if (this.#open) return;
    this.#open = true;
    document.body.appendChild(this.containerEl);
    this.#onOpen = Promise.resolve(this.onOpen());
    openModals.add(this);
    void this.__drawn().then(() => {
      for (const listener of openListeners.splice(0)) listener(this);
    });
  }

  /** Test aid: resolves when what `open()` started drawing has finished. */
  __drawn(): Promise<unknown> {
    return this.#onOpen;
  }

  close(): void {
    if (!this.#open) return;
    this.#open = false;
    openModals.delete(this);
    this.onClose();
    this.containerEl.detach();
    this.#closeCallback?.();
  }

  onOpen(): Promise<void> | void {}
  onClose(): void {}

  setTitle(title: string): this {
    this.titleEl.setText(title);
    return this;
  }

  setContent(content: string | DocumentFragment): this {
    this.contentEl.setText(content);
    return this;
  }

  setCloseCallback(callback: () => unknown): this {
    this.#closeCallback = callback;
    return this;
  }
}

/**
 * Obsidian's `SuggestModal`: a prompt input; each `input` event asks `getSuggestions` (sync or async)
 * and renders up to `limit` `.suggestion-item`s; a click or Enter chooses (the modal closes first, then
 * `onChooseSuggestion` runs); no suggestions shows `emptyStateText`.
 */
export abstract class SuggestModal<T> extends Modal implements RealSuggestModal<T> {
  limit = 100;
  emptyStateText = 'No results found.';
  inputEl: HTMLInputElement;
  resultContainerEl: HTMLElement;
  #values: T[] = [];
  #selected = 0;
  #generation = 0;
  #updating: Promise<void> = Promise.resolve();

  constructor(app: App) {
    super(app);
    this.modalEl.addClass('prompt');
    this.inputEl = this.modalEl.createEl('input', { cls: 'prompt-input', type: 'text' });
    this.resultContainerEl = this.modalEl.createDiv('prompt-results');
    this.inputEl.addEventListener('input', () => void this.#update());
    this.inputEl.addEventListener('keydown', (evt) => {
      if ((evt as KeyboardEvent).key === 'Enter') this.selectActiveSuggestion(evt as KeyboardEvent);
    });
  }

  override open(): void {
    super.open();
    void this.#update(); // part of the drawing `__drawn` waits for (it checks again after a microtask)
  }

  override async __drawn(): Promise<unknown> {
    await super.__drawn();
    let current: Promise<void>;
    do {
      current = this.#updating;
      await current;
    } while (current !== this.#updating);
    return undefined;
  }

  #update(): Promise<void> {
    this.#updating = this.updateSuggestions();
    return this.#updating;
  }

  setPlaceholder(placeholder: string): void {
    this.inputEl.setAttribute('placeholder', placeholder);
  }

  setInstructions(instructions: Instruction[]): void {
    this.modalEl.find('.prompt-instructions')?.detach();
    const el = this.modalEl.createDiv('prompt-instructions');
    for (const i of instructions) el.createDiv({ cls: 'prompt-instruction', text: `${i.command} ${i.purpose}` });
  }

  /** Test aid and the real app's refresh: re-queries for the current input value. */
  async updateSuggestions(): Promise<void> {
    const generation = ++this.#generation;
    const values = await this.getSuggestions(this.inputEl.value);
    if (generation !== this.#generation) return;
    this.#values = values.slice(0, this.limit);
    this.#selected = 0;
    this.resultContainerEl.empty();
    if (this.#values.length === 0) {
      this.onNoSuggestion();
      return;
    }
    for (const value of this.#values) {
      const el = this.resultContainerEl.createDiv('suggestion-item');
      this.renderSuggestion(value, el);
      el.addEventListener('click', (evt) => this.selectSuggestion(value, evt as MouseEvent));
    }
  }

  onNoSuggestion(): void {
    this.resultContainerEl.createDiv({ cls: 'suggestion-empty', text: this.emptyStateText });
  }

  selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
    this.close();
    this.onChooseSuggestion(value, evt);
  }

  selectActiveSuggestion(evt: MouseEvent | KeyboardEvent): void {
    const value = this.#values[this.#selected];
    if (value !== undefined) this.selectSuggestion(value, evt);
  }

  abstract getSuggestions(query: string): T[] | Promise<T[]>;
  abstract renderSuggestion(value: T, el: HTMLElement): void;
  abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): void;
}

/** Obsidian's `FuzzySuggestModal`: fuzzy-filters `getItems()` by `getItemText`, best score first. */
export abstract class FuzzySuggestModal<T> extends SuggestModal<FuzzyMatch<T>> implements RealFuzzySuggestModal<T> {
  getSuggestions(query: string): FuzzyMatch<T>[] {
    const search = prepareFuzzySearch(query);
    return this.getItems()
      .map((item) => ({ item, match: search(this.getItemText(item)) }))
      .filter((m): m is FuzzyMatch<T> => m.match !== null)
      .sort((a, b) => b.match.score - a.match.score);
  }

  renderSuggestion(item: FuzzyMatch<T>, el: HTMLElement): void {
    el.setText(this.getItemText(item.item));
  }

  onChooseSuggestion(item: FuzzyMatch<T>, evt: MouseEvent | KeyboardEvent): void {
    this.onChooseItem(item.item, evt);
  }

  abstract getItems(): T[];
  abstract getItemText(item: T): string;
  abstract onChooseItem(item: T, evt: MouseEvent | KeyboardEvent): void;
}

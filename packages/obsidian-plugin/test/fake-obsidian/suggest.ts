import type {
  AbstractInputSuggest as RealAbstractInputSuggest,
  App,
  PopoverSuggest as RealPopoverSuggest,
  Scope,
} from 'obsidian';
import './dom-helpers.js';

type PopoverUsed = 'app' | 'scope' | 'open' | 'close' | 'renderSuggestion' | 'selectSuggestion';
// `onSelect` returns `this`, which a Pick of the nominal real class cannot hold; type-check.ts checks it.
type InputSuggestUsed = PopoverUsed | 'limit' | 'setValue' | 'getValue';

/**
 * Obsidian's `PopoverSuggest`: a `.suggestion-container` popover (holding `.suggestion`) attached to the
 * body while open, removed on close.
 */
export abstract class PopoverSuggest<T> implements Pick<RealPopoverSuggest<T>, PopoverUsed> {
  app: App;
  scope: Scope;
  /** The popover (internal to the app; tests query `.suggestion-container`). */
  readonly __containerEl: HTMLElement;
  readonly __suggestionsEl: HTMLElement;

  constructor(app: App, scope?: Scope) {
    this.app = app;
    this.scope = scope ?? ({} as Scope);
    this.__containerEl = createDiv('suggestion-container');
    this.__suggestionsEl = this.__containerEl.createDiv('suggestion');
  }

  open(): void {
    if (!this.__containerEl.isConnected) document.body.appendChild(this.__containerEl);
  }

  close(): void {
    this.__containerEl.detach();
  }

  abstract renderSuggestion(value: T, el: HTMLElement): void;
  abstract selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void;
}

/**
 * Obsidian's `AbstractInputSuggest`: suggestions for a text input. Typing in (or focusing) the input asks
 * `getSuggestions(value)` (sync or async; a stale answer is dropped) and shows up to `limit` items, or
 * closes when there are none; clicking an item, or Enter on the first, calls `selectSuggestion`, which
 * by default hands the value to the `onSelect` callback (it neither fills the input nor closes: the
 * callback does that with `setValue`/`close`). Escape closes.
 */
export abstract class AbstractInputSuggest<T>
  extends PopoverSuggest<T>
  implements Pick<RealAbstractInputSuggest<T>, InputSuggestUsed>
{
  limit = 100;
  readonly #inputEl: HTMLInputElement | HTMLDivElement;
  #onSelect: ((value: T, evt: MouseEvent | KeyboardEvent) => unknown) | undefined;
  #values: T[] = [];
  #generation = 0;

  constructor(app: App, textInputEl: HTMLInputElement | HTMLDivElement) {
    super(app);
    this.#inputEl = textInputEl;
    textInputEl.addEventListener('input', () => void this.#update());
    textInputEl.addEventListener('focus', () => void this.#update());
    textInputEl.addEventListener('keydown', (evt) => {
      const key = (evt as KeyboardEvent).key;
      if (key === 'Escape') this.close();
      else if (key === 'Enter' && this.__containerEl.isConnected && this.#values[0] !== undefined)
        this.selectSuggestion(this.#values[0], evt as KeyboardEvent);
    });
  }

  setValue(value: string): void {
    if (this.#inputEl instanceof HTMLInputElement) this.#inputEl.value = value;
    else this.#inputEl.setText(value);
  }

  getValue(): string {
    return this.#inputEl instanceof HTMLInputElement ? this.#inputEl.value : (this.#inputEl.textContent ?? '');
  }

  protected abstract getSuggestions(query: string): T[] | Promise<T[]>;

  selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
    this.#onSelect?.(value, evt);
  }

  onSelect(callback: (value: T, evt: MouseEvent | KeyboardEvent) => unknown): this {
    this.#onSelect = callback;
    return this;
  }

  async #update(): Promise<void> {
    const generation = ++this.#generation;
    const values = await this.getSuggestions(this.getValue());
    if (generation !== this.#generation) return;
    this.#values = this.limit > 0 ? values.slice(0, this.limit) : values;
    this.__suggestionsEl.empty();
    if (this.#values.length === 0) {
      this.close();
      return;
    }
    for (const value of this.#values) {
      const el = this.__suggestionsEl.createDiv('suggestion-item');
      this.renderSuggestion(value, el);
      el.addEventListener('click', (evt) => this.selectSuggestion(value, evt as MouseEvent));
    }
    this.open();
  }
}

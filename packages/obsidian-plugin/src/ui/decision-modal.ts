import { Modal, type App } from 'obsidian';

/**
 * A modal that answers one question: `decide` is called exactly once, with what the user chose
 * (`finish`) or with `declined` when the modal closes any other way (Escape, the close button).
 */
export abstract class DecisionModal<T> extends Modal {
  #decided = false;

  constructor(
    app: App,
    private readonly decide: (answer: T) => void,
    private readonly declined: T,
  ) {
    super(app);
  }

  override onClose(): void {
    this.contentEl.empty();
    this.#answer(this.declined);
  }

  /** Answers and closes. */
  protected finish(answer: T): void {
    this.#answer(answer);
    this.close();
  }

  #answer(answer: T): void {
    if (this.#decided) return;
    this.#decided = true;
    this.decide(answer);
  }
}

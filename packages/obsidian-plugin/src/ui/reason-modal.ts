import { Setting, type App } from 'obsidian';
import { DecisionModal } from './decision-modal.js';

export interface ReasonOptions {
  readonly title: string;
  readonly message: string;
  /** The button that goes ahead. */
  readonly confirmText: string;
  /** Whether the action needs a reason (marking a step failed); else it may be left empty. */
  readonly required: boolean;
}

/**
 * Asks for the reason an action is logged with. Resolves with the reason (trimmed; `""` when optional
 * and left empty), or `undefined` when the user closes it without going ahead.
 */
export function askReason(app: App, options: ReasonOptions): Promise<string | undefined> {
  return new Promise((resolve) => new ReasonModal(app, options, resolve).open());
}

class ReasonModal extends DecisionModal<string | undefined> {
  #reason = '';

  constructor(
    app: App,
    private readonly options: ReasonOptions,
    decide: (reason: string | undefined) => void,
  ) {
    super(app, decide, undefined);
  }

  override onOpen(): void {
    this.setTitle(this.options.title);
    this.contentEl.createEl('p', { text: this.options.message });
    const field = new Setting(this.contentEl)
      .setName(this.options.required ? 'Reason' : 'Reason (optional)')
      .addTextArea((text) => text.onChange((value) => (this.#reason = value)));
    new Setting(this.contentEl)
      .addButton((button) => button.setButtonText('Cancel').onClick(() => this.finish(undefined)))
      .addButton((button) =>
        button
          .setButtonText(this.options.confirmText)
          .setCta()
          .onClick(() => {
            const reason = this.#reason.trim();
            if (this.options.required && reason === '')
              field.setErrorMessage('Say what went wrong: it is logged with the step.');
            else this.finish(reason);
          }),
      );
  }
}

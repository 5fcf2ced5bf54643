import { Setting, type App } from 'obsidian';
import { DecisionModal } from './decision-modal.js';

export interface ConfirmOptions {
  readonly title: string;
  readonly message: string;
  /** The button that goes ahead (shown as a warning). */
  readonly confirmText: string;
}

/** Asks before anything is destroyed. Resolves `true` only when the user presses the confirm button. */
export function confirmAction(app: App, options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => new ConfirmModal(app, options, resolve).open());
}

class ConfirmModal extends DecisionModal<boolean> {
  constructor(
    app: App,
    private readonly options: ConfirmOptions,
    decide: (confirmed: boolean) => void,
  ) {
    super(app, decide, false);
  }

  override onOpen(): void {
    this.setTitle(this.options.title);
    this.contentEl.createEl('p', { text: this.options.message });
    new Setting(this.contentEl)
      .addButton((button) => button.setButtonText('Cancel').onClick(() => this.finish(false)))
      .addButton((button) =>
        button
          .setButtonText(this.options.confirmText)
          .setWarning()
          .onClick(() => this.finish(true)),
      );
  }
}

import { FuzzySuggestModal, type App } from 'obsidian';
import { displayError } from '../errors.js';
import type { PlanLookup } from '../services.js';

/**
 * Picks one of the project's plans when it has several: the active one is named in the repository's
 * `.harness/active-plan`, which Obsidian cannot see.
 */
export class PlanPickerModal extends FuzzySuggestModal<string> {
  constructor(
    app: App,
    private readonly lookup: PlanLookup,
    private readonly openNote: (path: string) => Promise<unknown>,
  ) {
    super(app);
    this.setPlaceholder(`Open a plan of ${lookup.project ?? 'the project'}…`);
  }

  getItems(): string[] {
    return [...this.lookup.plans];
  }

  getItemText(path: string): string {
    return path.slice(path.lastIndexOf('/') + 1);
  }

  onChooseItem(path: string): void {
    void this.openNote(path).catch((error: unknown) => displayError(error, 'could not open the plan'));
  }
}

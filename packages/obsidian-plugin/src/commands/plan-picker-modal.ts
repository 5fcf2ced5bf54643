import { FuzzySuggestModal, type App } from 'obsidian';
import { displayError } from '../errors.js';
import type { PlanLookup } from '../services.js';

/**
 * Picks one of the project's plans when it has several: the active one is named in the repository's
 * `.harness/active-plan`, which Obsidian cannot see.
 */
type ListedPlan = PlanLookup['plans'][number];

export class PlanPickerModal extends FuzzySuggestModal<ListedPlan> {
  constructor(
    app: App,
    private readonly lookup: PlanLookup,
    private readonly openNote: (path: string) => Promise<unknown>,
  ) {
    super(app);
    this.setPlaceholder(`Open a plan of ${lookup.project ?? 'the project'}…`);
  }

  getItems(): ListedPlan[] {
    return [...this.lookup.plans];
  }

  /** A plan by its goal, with its name beside it when they differ. */
  getItemText(plan: ListedPlan): string {
    return plan.title === plan.name ? plan.name : `${plan.title} (${plan.name})`;
  }

  onChooseItem(plan: ListedPlan): void {
    void this.openNote(plan.path).catch((error: unknown) => displayError(error, 'could not open the plan'));
  }
}

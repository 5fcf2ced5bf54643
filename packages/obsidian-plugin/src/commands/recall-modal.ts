import { SuggestModal, type App } from 'obsidian';
import { displayError } from '../errors.js';
import type { AgentMServices, RecallHit } from '../services.js';

/** How long typing must pause before recall runs. */
export const RECALL_DEBOUNCE_MS = 200;

/**
 * Recall as you type: once typing pauses, the query goes to the recall service (core's engine) and its
 * results, best first, are the suggestions (before anything is typed: the most recent memories);
 * choosing one opens the note. Every pending request gets
 * the answer to the newest query, so a slow answer to an old query never replaces a newer one.
 */
export class RecallModal extends SuggestModal<RecallHit> {
  #timer: number | undefined;
  #waiting: Array<(hits: RecallHit[]) => void> = [];

  constructor(
    app: App,
    private readonly services: AgentMServices,
    private readonly openNote: (path: string) => Promise<unknown>,
    private readonly debounceMs = RECALL_DEBOUNCE_MS,
  ) {
    super(app);
    this.setPlaceholder('Recall memories…');
    this.emptyStateText = 'No memories match.';
  }

  getSuggestions(query: string): Promise<RecallHit[]> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      window.clearTimeout(this.#timer);
      this.#timer = window.setTimeout(() => void this.#run(query), this.debounceMs);
    });
  }

  async #run(query: string): Promise<void> {
    this.#timer = undefined;
    const waiting = this.#waiting.splice(0);
    let hits: RecallHit[] = [];
    try {
      hits = [...(await this.services.recall(query.trim()))]; // nothing typed yet: the most recent memories
    } catch (error) {
      displayError(error, 'recall failed');
    }
    if (this.#timer !== undefined)
      this.#waiting.push(...waiting); // a newer query is on its way: answer with it
    else for (const resolve of waiting) resolve(hits);
  }

  renderSuggestion(hit: RecallHit, el: HTMLElement): void {
    el.createDiv({ cls: 'agentm-recall-title', text: hit.title });
    el.createEl('small', { cls: 'agentm-muted', text: [hit.kind, hit.path].filter(Boolean).join(' · ') });
    if (hit.snippet) el.createDiv({ cls: 'agentm-recall-snippet', text: hit.snippet });
  }

  onChooseSuggestion(hit: RecallHit): void {
    void this.openNote(hit.path).catch((error: unknown) => displayError(error, 'could not open the note'));
  }

  override onClose(): void {
    window.clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const resolve of this.#waiting.splice(0)) resolve([]);
  }
}

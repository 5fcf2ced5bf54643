import { SuggestModal, TFile, type App } from 'obsidian';
import { displayError } from '../errors.js';
import type { AgentMServices, RecallHit } from '../services.js';

/** Recall as you type: each query asks the recall service; choosing a result opens the note. */
export class RecallModal extends SuggestModal<RecallHit> {
  constructor(
    app: App,
    private readonly services: AgentMServices,
  ) {
    super(app);
    this.setPlaceholder('Recall memories…');
    this.emptyStateText = 'No memories match.';
  }

  async getSuggestions(query: string): Promise<RecallHit[]> {
    if (query.trim() === '') return [];
    try {
      return [...(await this.services.recall(query.trim()))];
    } catch (error) {
      displayError(error, 'recall failed');
      return [];
    }
  }

  renderSuggestion(hit: RecallHit, el: HTMLElement): void {
    el.createDiv({ cls: 'agentm-recall-title', text: hit.title });
    if (hit.snippet) el.createEl('small', { cls: 'agentm-muted', text: hit.snippet });
  }

  onChooseSuggestion(hit: RecallHit): void {
    const file = this.app.vault.getAbstractFileByPath(hit.path);
    if (file instanceof TFile) void this.app.workspace.getLeaf(false).openFile(file);
    else displayError(new Error(`"${hit.path}" is not in the vault any more`), 'could not open the note');
  }
}

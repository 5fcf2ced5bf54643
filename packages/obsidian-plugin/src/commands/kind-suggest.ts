import { AbstractInputSuggest, type App } from 'obsidian';
import type { Vocabulary } from '@agentm/core/memory';

/** One kind the vocabulary accepts, and how it is filed. */
export interface KindOption {
  readonly name: string;
  /** `memory type`, `record kind`, or `retired: files as <replacement>`. */
  readonly note: string;
}

/** Every name of the vocabulary: memory types, record kinds, then retired names with their replacement. */
export function kindOptions(vocabulary: Vocabulary): KindOption[] {
  return [
    ...vocabulary.types.map((name) => ({ name, note: 'memory type' })),
    ...vocabulary.recordKinds.map((name) => ({ name, note: 'record kind' })),
    ...Object.entries(vocabulary.retired).map(([name, replacement]) => ({
      name,
      note: `retired: files as ${replacement}`,
    })),
  ];
}

/** The kind field's suggestions: the vocabulary's names containing what is typed. */
export class KindSuggest extends AbstractInputSuggest<KindOption> {
  readonly #options: KindOption[];

  constructor(app: App, inputEl: HTMLInputElement, vocabulary: Vocabulary) {
    super(app, inputEl);
    this.#options = kindOptions(vocabulary);
  }

  protected override getSuggestions(query: string): KindOption[] {
    const q = query.trim().toLowerCase();
    return this.#options.filter((o) => o.name.includes(q));
  }

  override renderSuggestion(option: KindOption, el: HTMLElement): void {
    el.createDiv({ text: option.name });
    el.createEl('small', { cls: 'agentm-muted', text: option.note });
  }
}

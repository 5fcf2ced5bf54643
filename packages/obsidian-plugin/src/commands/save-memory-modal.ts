import { Modal, Notice, Setting, type App, type TextComponent } from 'obsidian';
import { NoteExistsError } from '@agentm/core/memory';
import type { AgentMServices, SavedNote, SaveForm } from '../services.js';
import { KindSuggest } from './kind-suggest.js';
import { suggestSlug, validateMemoryForm, type MemoryField } from './memory-form.js';

type Field = Exclude<MemoryField, 'body'>;

/**
 * Asks for kind (with the vocabulary as suggestions), slug, tags and group (the current project's,
 * prefilled), validates them with core's checks, and saves the selection as a memory note. Nothing is
 * written until every field is valid; a refused save (an existing slug) shows core's reason under the slug.
 */
export class SaveMemoryModal extends Modal {
  readonly values: Record<Field, string>;
  readonly #rows = new Map<MemoryField, Setting>();
  #suggest: KindSuggest | undefined;
  #actions: Setting | undefined;
  #saving = false;

  constructor(
    app: App,
    private readonly services: AgentMServices,
    private readonly body: string,
    private readonly form: SaveForm,
    private readonly onSaved: (saved: SavedNote) => void = () => undefined,
  ) {
    super(app);
    this.values = { kind: '', slug: suggestSlug(body), tags: '', group: form.group };
  }

  override onOpen(): void {
    this.setTitle('Save selection as memory');
    const field = (key: Field, name: string, desc: string, placeholder: string): TextComponent => {
      const row = new Setting(this.contentEl).setName(name).setDesc(desc);
      let input: TextComponent | undefined;
      row.addText(
        (text) =>
          (input = text
            .setPlaceholder(placeholder)
            .setValue(this.values[key])
            .onChange((value) => (this.values[key] = value))),
      );
      row.settingEl.setAttr('data-field', key);
      this.#rows.set(key, row);
      return input!;
    };
    const kind = field(
      'kind',
      'Kind',
      'The memory type, e.g. convention, preference, reference, workflow, fix, idea.',
      'convention',
    );
    this.#suggest = new KindSuggest(this.app, kind.inputEl, this.form.vocabulary);
    this.#suggest.onSelect((option) => {
      kind.setValue(option.name);
      this.values.kind = option.name;
      this.#suggest?.close();
    });
    field('slug', 'Slug', 'The note name: lowercase letters, digits and hyphens.', 'pick-stdlib');
    field('tags', 'Tags', 'Optional, separated by commas.', 'a, b');
    const where = this.form.project ? `project ${this.form.project}` : 'no current project';
    field('group', 'Group', `The folder group (${where}); empty for the memory space.`, 'memory');
    const bodyRow = new Setting(this.contentEl).setName('Text').setDesc(`${this.body.length} characters selected.`);
    bodyRow.settingEl.setAttr('data-field', 'body');
    this.#rows.set('body', bodyRow);
    this.#actions = new Setting(this.contentEl).addButton((button) =>
      button
        .setButtonText('Save')
        .setCta()
        .onClick(() => void this.save()),
    );
    this.#actions.settingEl.setAttr('data-field', 'save');
  }

  override onClose(): void {
    this.#suggest?.close();
    this.contentEl.empty();
  }

  /** Validates, shows each field's error under it, and saves when all are valid. Resolves `true` once saved. */
  async save(): Promise<boolean> {
    if (this.#saving) return false;
    for (const row of [...this.#rows.values(), this.#actions]) row?.setErrorMessage(null);
    const result = validateMemoryForm({ ...this.values, body: this.body }, this.form.vocabulary);
    if (!result.ok) {
      for (const { field, message } of result.errors) {
        const row = this.#rows.get(field);
        row?.setErrorMessage([row.errorEl?.getText(), message].filter(Boolean).join(' '));
      }
      return false;
    }
    this.#saving = true;
    try {
      const saved = await this.services.saveNote(result.request);
      new Notice(`AgentM: saved memory note ${saved.path}`);
      this.close();
      this.onSaved(saved);
      return true;
    } catch (error) {
      // An existing slug belongs under the slug; anything else (the lock wait ran out…) under the button.
      const row = error instanceof NoteExistsError ? this.#rows.get('slug') : this.#actions;
      row?.setErrorMessage(error instanceof Error ? error.message : String(error));
      return false;
    } finally {
      this.#saving = false;
    }
  }
}

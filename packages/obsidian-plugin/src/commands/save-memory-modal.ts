import { Modal, Notice, Setting, type App } from 'obsidian';
import type { AgentMServices } from '../services.js';
import { suggestSlug, validateMemoryForm, type MemoryField } from './memory-form.js';

/** Asks for kind, slug, tags (and optionally group) and saves the selection as a memory note. */
export class SaveMemoryModal extends Modal {
  readonly values: Record<Exclude<MemoryField, 'body'>, string>;
  readonly #rows = new Map<MemoryField, Setting>();
  #saving = false;

  constructor(
    app: App,
    private readonly services: AgentMServices,
    private readonly body: string,
  ) {
    super(app);
    this.values = { kind: '', slug: suggestSlug(body), tags: '', group: '' };
  }

  override onOpen(): void {
    this.setTitle('Save selection as memory');
    const field = (key: Exclude<MemoryField, 'body'>, name: string, desc: string, placeholder: string) => {
      const row = new Setting(this.contentEl).setName(name).setDesc(desc);
      row.addText((text) => text.setPlaceholder(placeholder).setValue(this.values[key]).onChange((value) => (this.values[key] = value)));
      row.settingEl.setAttr('data-field', key);
      this.#rows.set(key, row);
    };
    field('kind', 'Kind', 'The memory type, e.g. convention, preference, reference, workflow, fix, idea.', 'convention');
    field('slug', 'Slug', 'The note name: lowercase letters, digits and hyphens.', 'pick-stdlib');
    field('tags', 'Tags', 'Optional, separated by commas.', 'a, b');
    field('group', 'Group', 'Optional, e.g. desk/projects/agentm.', 'Default');
    const bodyRow = new Setting(this.contentEl).setName('Text').setDesc(`${this.body.length} characters selected.`);
    bodyRow.settingEl.setAttr('data-field', 'body');
    this.#rows.set('body', bodyRow);
    new Setting(this.contentEl).addButton((button) => button.setButtonText('Save').setCta().onClick(() => void this.save()));
  }

  override onClose(): void {
    this.contentEl.empty();
  }

  /** Validates, shows each field's error under it, and saves when all are valid. Resolves `true` once saved. */
  async save(): Promise<boolean> {
    if (this.#saving) return false;
    for (const row of this.#rows.values()) row.setErrorMessage(null);
    const result = validateMemoryForm({ ...this.values, body: this.body });
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
      return true;
    } catch (error) {
      this.#rows.get('slug')?.setErrorMessage(error instanceof Error ? error.message : String(error));
      return false;
    } finally {
      this.#saving = false;
    }
  }
}

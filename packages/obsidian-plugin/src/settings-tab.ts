import { PluginSettingTab, Setting, type App } from 'obsidian';
import type AgentMPlugin from './main.js';
import { isSafeSegment } from '@agentm/core/config';
import { MEMORY_ROOT_SOURCE_TEXT, parseMemoryRootSetting } from './memory-root.js';
import { LOCK_WAIT_RANGE } from './settings.js';

/** Memory root, lock wait, default project and lost-and-found scanning. A bad value shows its error and is not saved. */
export class AgentMSettingTab extends PluginSettingTab {
  constructor(
    app: App,
    private readonly owner: AgentMPlugin,
  ) {
    super(app, owner);
  }

  override display(): void {
    const { containerEl } = this;
    containerEl.empty();
    new Setting(containerEl).setName('Storage').setHeading();

    const current = this.owner.context?.memoryRoot;
    const now = current
      ? ` Now: ${current.folder === '' ? '/' : current.folder} (${MEMORY_ROOT_SOURCE_TEXT[current.source]}).`
      : '';
    const root = new Setting(containerEl)
      .setName('Memory root folder')
      .setDesc(
        `The vault folder that holds AgentM memory and plans (e.g. "Agent"); "/" is the vault root. Leave empty to use agentm's config (MEMORY_VAULT_PATH, or memory_root when its vault_path is this vault), else the vault root.${now}`,
      );
    root.addText((text) =>
      text
        .setPlaceholder('Default')
        .setValue(this.owner.settings.memoryRoot)
        .onChange(async (value) => {
          try {
            parseMemoryRootSetting(value);
          } catch (error) {
            root.setErrorMessage((error as Error).message);
            return;
          }
          root.setErrorMessage(null);
          this.owner.settings.memoryRoot = value;
          await this.owner.saveSettings();
        }),
    );

    const wait = new Setting(containerEl)
      .setName('Lock wait')
      .setDesc(
        `Seconds a write waits while an agent holds the vault lock (${LOCK_WAIT_RANGE.min}–${LOCK_WAIT_RANGE.max}).`,
      );
    wait.addText((text) =>
      text.setValue(String(this.owner.settings.lockWaitSeconds)).onChange(async (value) => {
        const seconds = Number(value);
        if (!Number.isInteger(seconds) || seconds < LOCK_WAIT_RANGE.min || seconds > LOCK_WAIT_RANGE.max) {
          wait.setErrorMessage(
            `Lock wait must be a whole number of seconds from ${LOCK_WAIT_RANGE.min} to ${LOCK_WAIT_RANGE.max}.`,
          );
          return;
        }
        wait.setErrorMessage(null);
        this.owner.settings.lockWaitSeconds = seconds;
        await this.owner.saveSettings();
      }),
    );

    new Setting(containerEl).setName('Commands').setHeading();
    const project = new Setting(containerEl)
      .setName('Default project')
      .setDesc(
        'The project folder name (e.g. "my-app") that save, recall and open the active plan use when the active note is not inside a project folder. Empty: none.',
      );
    project.addText((text) =>
      text
        .setPlaceholder('None')
        .setValue(this.owner.settings.defaultProject)
        .onChange(async (value) => {
          const slug = value.trim();
          if (slug !== '' && !isSafeSegment(slug)) {
            project.setErrorMessage(`"${slug}" is not a project folder name: use one name without "/", "\\" or NUL.`);
            return;
          }
          project.setErrorMessage(null);
          this.owner.settings.defaultProject = slug;
          await this.owner.saveSettings();
        }),
    );

    new Setting(containerEl).setName('Conflicts').setHeading();
    new Setting(containerEl)
      .setName('Scan Google Drive lost and found')
      .setDesc(
        'Also list the files Google Drive put in its lost_and_found folder (read only; AgentM never changes that folder).',
      )
      .addToggle((toggle) =>
        toggle.setValue(this.owner.settings.scanLostAndFound).onChange(async (value) => {
          this.owner.settings.scanLostAndFound = value;
          await this.owner.saveSettings();
        }),
      );
  }
}

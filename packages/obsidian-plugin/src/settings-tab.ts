import { PluginSettingTab, Setting, type App } from 'obsidian';
import type AgentMPlugin from './main.js';
import { resolveMemoryRootFolder } from './memory-root.js';
import { LOCK_WAIT_RANGE } from './settings.js';

/** Memory root, lock wait and lost-and-found scanning. A bad value shows its error and is not saved. */
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

    const root = new Setting(containerEl)
      .setName('Memory root folder')
      .setDesc('The vault folder that holds AgentM memory and plans (e.g. "Agent"). Leave empty for the default; "/" is the vault root.');
    root.addText((text) =>
      text
        .setPlaceholder('Default')
        .setValue(this.owner.settings.memoryRoot)
        .onChange(async (value) => {
          try {
            resolveMemoryRootFolder(value);
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
      .setDesc(`Seconds a write waits while an agent holds the vault lock (${LOCK_WAIT_RANGE.min}–${LOCK_WAIT_RANGE.max}).`);
    wait.addText((text) =>
      text.setValue(String(this.owner.settings.lockWaitSeconds)).onChange(async (value) => {
        const seconds = Number(value);
        if (!Number.isInteger(seconds) || seconds < LOCK_WAIT_RANGE.min || seconds > LOCK_WAIT_RANGE.max) {
          wait.setErrorMessage(`Lock wait must be a whole number of seconds from ${LOCK_WAIT_RANGE.min} to ${LOCK_WAIT_RANGE.max}.`);
          return;
        }
        wait.setErrorMessage(null);
        this.owner.settings.lockWaitSeconds = seconds;
        await this.owner.saveSettings();
      }),
    );

    new Setting(containerEl).setName('Conflicts').setHeading();
    new Setting(containerEl)
      .setName('Scan Google Drive lost and found')
      .setDesc("Also list the files Google Drive put in its lost_and_found folder (read only; AgentM never changes that folder).")
      .addToggle((toggle) =>
        toggle.setValue(this.owner.settings.scanLostAndFound).onChange(async (value) => {
          this.owner.settings.scanLostAndFound = value;
          await this.owner.saveSettings();
        }),
      );
  }
}

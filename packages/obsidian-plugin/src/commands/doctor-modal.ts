import { Modal, type App } from 'obsidian';
import type { DoctorReport } from '../services.js';

/** The storage doctor: agentm's storage row for this machine, then the plugin's memory root, lock and conflicts. */
export class DoctorModal extends Modal {
  constructor(
    app: App,
    private readonly report: DoctorReport,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { storage, vault, warnings } = this.report;
    this.setTitle('AgentM storage doctor');
    const el = this.contentEl;
    el.createEl('h4', { text: "AgentM's configuration on this machine" });
    el.createEl('p', { cls: ['agentm-doctor-storage', `agentm-doctor-${storage.status}`], text: storage.line });
    el.createEl('h4', { text: 'This vault' });
    const facts = el.createEl('ul', { cls: 'agentm-doctor-vault' });
    facts.createEl('li', { text: `Memory root: ${vault.memoryRoot} (${vault.memoryRootSource})` });
    facts.createEl('li', { text: `On disk: ${vault.memoryRootPath}` });
    facts.createEl('li', { text: `Vault lock: ${vault.lock}` });
    facts.createEl('li', {
      text: `Conflict copies: ${vault.conflicts === undefined ? 'not scanned yet' : vault.conflicts}`,
    });
    for (const warning of warnings) el.createEl('p', { cls: 'agentm-doctor-warn', text: `Warning: ${warning}` });
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}

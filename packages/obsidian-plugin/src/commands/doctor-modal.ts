import { Modal, type App } from 'obsidian';
import type { DoctorReport } from '../services.js';

/** The storage doctor's verdict: status, backend and the one-line explanation. */
export class DoctorModal extends Modal {
  constructor(
    app: App,
    private readonly report: DoctorReport,
  ) {
    super(app);
  }

  override onOpen(): void {
    this.setTitle('AgentM storage doctor');
    this.contentEl.createEl('p', { cls: `agentm-doctor-${this.report.status}`, text: `Status: ${this.report.status}` });
    this.contentEl.createEl('p', { text: `Backend: ${this.report.protocol}` });
    this.contentEl.createEl('p', { text: this.report.line });
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}

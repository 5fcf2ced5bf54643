import { Modal, type App } from 'obsidian';
import { doctorLine } from '@agentm/core';
import type { DoctorReport } from '../services.js';

/** The storage doctor: the plugin's memory root, then the workspace's checks, one per line, as `agentm doctor` words them. */
export class DoctorModal extends Modal {
  constructor(
    app: App,
    private readonly report: DoctorReport,
  ) {
    super(app);
  }

  override onOpen(): void {
    const { checks, memoryRoot } = this.report;
    this.setTitle('AgentM storage doctor');
    const el = this.contentEl;
    el.createEl('p', {
      cls: 'agentm-doctor-root',
      text: `Memory root: ${memoryRoot.folder} (${memoryRoot.source}), on disk ${memoryRoot.path}`,
    });
    const list = el.createEl('ul', { cls: 'agentm-doctor-checks' });
    for (const check of checks)
      list.createEl('li', { cls: ['agentm-doctor-check', `agentm-doctor-${check.status}`], text: doctorLine(check) });
  }

  override onClose(): void {
    this.contentEl.empty();
  }
}

import { Notice, TFile, type Plugin } from 'obsidian';
import { displayError } from '../errors.js';
import type { AgentMServices } from '../services.js';
import { DoctorModal } from './doctor-modal.js';
import { RecallModal } from './recall-modal.js';
import { SaveMemoryModal } from './save-memory-modal.js';

/** The commands that need AgentM's core services. No default hotkeys (community guidelines). */
export function registerServiceCommands(plugin: Plugin, services: AgentMServices): void {
  const app = plugin.app;
  plugin.addCommand({
    id: 'save-selection-as-memory',
    name: 'Save selection as memory',
    editorCheckCallback: (checking, editor) => {
      const text = editor.getSelection();
      if (text.trim() === '') return false;
      if (!checking) new SaveMemoryModal(app, services, text).open();
      return true;
    },
  });
  plugin.addCommand({ id: 'recall', name: 'Recall', callback: () => new RecallModal(app, services).open() });
  plugin.addCommand({
    id: 'open-active-plan',
    name: 'Open the active plan',
    callback: async () => {
      try {
        const path = await services.activePlanFile();
        const file = path ? app.vault.getAbstractFileByPath(path) : null;
        if (!path) new Notice('AgentM: no active plan.');
        else if (file instanceof TFile) await app.workspace.getLeaf(false).openFile(file);
        else new Notice(`AgentM: the active plan "${path}" is not in this vault.`);
      } catch (error) {
        displayError(error, 'could not open the active plan');
      }
    },
  });
  plugin.addCommand({
    id: 'show-storage-doctor',
    name: 'Show storage doctor',
    callback: async () => {
      try {
        new DoctorModal(app, await services.doctor()).open();
      } catch (error) {
        displayError(error, 'the storage doctor failed');
      }
    },
  });
}

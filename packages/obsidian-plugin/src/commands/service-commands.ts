import { Notice, type Plugin } from 'obsidian';
import { displayError } from '../errors.js';
import { openWhenIndexed } from '../open-note.js';
import type { AgentMServices } from '../services.js';
import { DoctorModal } from './doctor-modal.js';
import { PlanPickerModal } from './plan-picker-modal.js';
import { RecallModal } from './recall-modal.js';
import { SaveMemoryModal } from './save-memory-modal.js';

/** The commands that need AgentM's core services. No default hotkeys (community guidelines). */
export function registerServiceCommands(plugin: Plugin, services: AgentMServices): void {
  const app = plugin.app;
  const open = (path: string) => openWhenIndexed(plugin, path);
  plugin.addCommand({
    id: 'save-selection-as-memory',
    name: 'Save selection as memory',
    editorCheckCallback: (checking, editor) => {
      const text = editor.getSelection();
      if (text.trim() === '') return false;
      if (!checking) {
        services.saveForm().then(
          (form) => new SaveMemoryModal(app, services, text, form, (saved) => void open(saved.path)).open(),
          (error: unknown) => displayError(error, 'could not save a memory'),
        );
      }
      return true;
    },
  });
  plugin.addCommand({ id: 'recall', name: 'Recall', callback: () => new RecallModal(app, services, open).open() });
  plugin.addCommand({
    id: 'open-active-plan',
    name: 'Open the active plan',
    callback: async () => {
      try {
        const lookup = await services.activePlanFiles();
        const [only, ...more] = lookup.plans;
        if (only === undefined) new Notice(`AgentM: ${lookup.reason ?? 'no plan.'}`);
        else if (more.length === 0) await open(only.path);
        else new PlanPickerModal(app, lookup, open).open();
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

import type { AgentMServices } from '../services.js';
import { activePlanFiles } from './active-plan.js';
import { agentmConfig, type ServiceDeps } from './deps.js';
import { doctorReport } from './doctor.js';
import { currentProject } from './project.js';
import { RecallIndex } from './recall-index.js';
import { saveForm, saveMemoryNote } from './save-note.js';

/** The real services over core. Cheap to build: nothing is read or opened until a command runs. */
export function createCoreServices(deps: ServiceDeps): AgentMServices & { readonly recallIndex: RecallIndex } {
  const recallIndex = new RecallIndex(deps);
  return {
    recallIndex,
    saveForm: () => saveForm(deps),
    saveNote: (request) => saveMemoryNote(deps, request, (path) => recallIndex.changed(path)),
    recall: async (query) => recallIndex.search(query, (await currentProject(deps, await agentmConfig(deps)))?.slug),
    activePlanFiles: () => activePlanFiles(deps),
    doctor: () => doctorReport(deps),
  };
}

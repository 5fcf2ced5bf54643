import type { AgentMServices } from '../services.js';
import { activePlanFiles } from './active-plan.js';
import type { ServiceDeps } from './deps.js';
import { doctorReport } from './doctor.js';
import { currentProject } from './project.js';
import { RecallIndex } from './recall-index.js';
import { saveForm, saveMemoryNote } from './save-note.js';
import { WorkspaceCache } from './workspaces.js';

/**
 * The real services over core: thin callers of the memory root's workspace. Cheap to build: nothing is
 * read or opened until a command runs.
 */
export function createCoreServices(deps: ServiceDeps): AgentMServices & { readonly recallIndex: RecallIndex } {
  const workspaces = new WorkspaceCache(deps);
  const recallIndex = new RecallIndex(deps, workspaces);
  const ws = () => workspaces.current();
  return {
    recallIndex,
    saveForm: async () => saveForm(deps, await ws()),
    saveNote: async (request) => saveMemoryNote(deps, await ws(), request, (path) => recallIndex.changed(path)),
    recall: async (query) => recallIndex.search(query, (await currentProject(deps, await ws()))?.slug),
    activePlanFiles: async () => activePlanFiles(deps, await ws()),
    doctor: async () => doctorReport(deps, await ws()),
  };
}

import { openPlan } from '@agentm/core';
import type { AgentMServices } from '../services.js';
import { activePlanFiles } from './active-plan.js';
import type { ServiceDeps } from './deps.js';
import { doctorReport } from './doctor.js';
import { planBoard } from './plan-board.js';
import { currentProject } from './project.js';
import { RecallIndex } from './recall-index.js';
import { saveForm, saveMemoryNote } from './save-note.js';
import { WorkspaceCache } from './workspaces.js';

/** Related memories shown beside a note (recall asks for more: the note itself may be among them). */
export const RELATED_RESULTS = 10;

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
    related: async (text, path, besides = []) => {
      const project = (await currentProject(deps, await ws(), path))?.slug;
      const hits = await recallIndex.search(text, project);
      const own = new Set([path, ...besides]);
      return hits.filter((hit) => !own.has(hit.path)).slice(0, RELATED_RESULTS);
    },
    activePlanFiles: async () => activePlanFiles(deps, await ws()),
    planBoard: async () => planBoard(deps, await ws()),
    openPlan: async (project, name) => openPlan(await ws(), name, { project }),
    doctor: async () => doctorReport(deps, await ws()),
  };
}

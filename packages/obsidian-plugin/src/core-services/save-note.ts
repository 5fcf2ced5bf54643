import type { Workspace } from '@agentm/core';
import type { SavedNote, SaveForm, SaveNoteRequest } from '../services.js';
import type { ServiceDeps } from './deps.js';
import { currentProject } from './project.js';

/**
 * What the save form starts from: the workspace's vocabulary (agentm's config `memory.vocabulary`, else
 * the default register) and the current project's folder as the group (else the memory space).
 */
export async function saveForm(deps: ServiceDeps, ws: Workspace): Promise<SaveForm> {
  const project = await currentProject(deps, ws);
  return { vocabulary: await ws.vocabulary(), group: project?.dir ?? ws.memorySpace, project: project?.slug };
}

/**
 * Saves a new memory note through the workspace (core's `saveNote` over the in-vault backend): agentm's
 * format byte for byte (dated by the host clock), the agentm lock and a CAS that expects the file to be
 * absent, so it never overwrites (an existing slug is `NoteExistsError` and nothing is written). Tells
 * `onSaved` the vault path (the recall index takes it from there).
 */
export async function saveMemoryNote(
  deps: ServiceDeps,
  ws: Workspace,
  request: SaveNoteRequest,
  onSaved: (path: string) => void,
): Promise<SavedNote> {
  const note = await ws.saveNote({
    kind: request.kind,
    slug: request.slug,
    body: request.body,
    tags: request.tags,
    ...(request.group !== undefined ? { group: request.group } : {}),
  });
  const path = deps.context().backend.pathOf(note.locator);
  onSaved(path);
  return { path };
}

import { resolveVocabulary, saveNote, spacePath, type ConfigData, type Vocabulary } from '@agentm/core';
import { diskPath } from '../disk.js';
import type { SavedNote, SaveForm, SaveNoteRequest } from '../services.js';
import { agentmConfig, type ServiceDeps } from './deps.js';
import { currentProject } from './project.js';

/**
 * The filing vocabulary, resolved by core as agentm resolves it (`$AGENTM_STORAGE_RULES`, then the
 * `standards/storage-rules.md` in or beside this memory root, then the shipped default; config
 * `memory.vocabulary` on top). A broken rules file throws `StorageRulesError`.
 */
function vocabularyHere(deps: ServiceDeps, config: ConfigData): Promise<Vocabulary> {
  return resolveVocabulary({
    host: deps.host().hostEnv,
    config,
    memoryRoot: diskPath(deps.app, deps.context().folder),
  });
}

/**
 * What the save form starts from: the resolved filing vocabulary and the current project's folder as
 * the group (else the memory space).
 */
export async function saveForm(deps: ServiceDeps): Promise<SaveForm> {
  const config = await agentmConfig(deps);
  const project = await currentProject(deps, config);
  return {
    vocabulary: await vocabularyHere(deps, config),
    group: project?.dir ?? spacePath('memory', config),
    project: project?.slug,
  };
}

/**
 * Saves a new memory note with core's `saveNote` through the in-vault backend: agentm's format byte for
 * byte (dated by the host clock), the agentm lock and a CAS that expects the file to be absent, so it
 * never overwrites (an existing slug is `NoteExistsError` and nothing is written). Tells `onSaved` the
 * vault path (the recall index takes it from there).
 */
export async function saveMemoryNote(
  deps: ServiceDeps,
  request: SaveNoteRequest,
  onSaved: (path: string) => void,
): Promise<SavedNote> {
  const config = await agentmConfig(deps);
  const { backend } = deps.context();
  const note = await saveNote(
    backend,
    {
      kind: request.kind,
      slug: request.slug,
      body: request.body,
      tags: request.tags,
      ...(request.group !== undefined ? { group: request.group } : {}),
    },
    {
      now: deps.host().now(),
      vocabulary: await vocabularyHere(deps, config),
      memorySpace: spacePath('memory', config),
    },
  );
  const path = backend.pathOf(note.locator);
  onSaved(path);
  return { path };
}

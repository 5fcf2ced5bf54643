/**
 * The workspace's note services: where a note is filed (one rule for every front end) and the save,
 * build and evolve that write it. A module of its own, imported when a note is filed, so a recall or a
 * hook that only reads never loads YAML and the note format.
 */
import { NoteValidationError } from '../memory/notes/errors.js';
import { evolveNote, type EvolvedNote, type EvolveNoteInput } from '../memory/notes/evolve.js';
import { buildNote, saveNote, type BuiltNote, type NoteOptions, type SaveNoteInput } from '../memory/notes/save.js';
import { GROUP_PATTERN } from '../memory/notes/validate.js';
import type { WorkspaceContext } from './context.js';

/** Which notes a note is filed with: the repository's project's, or every project's (the memory space). */
export type NoteScope = 'project' | 'global';

/** Where a note lands, and why, for a front end to say. */
export interface NoteFiling {
  /** `project`: the repository's project folder; `global`: the memory space; `group`: a group the caller gave. */
  readonly scope: NoteScope | 'group';
  /** The group written into the note (`desk/projects/<slug>`, `memory`, or the caller's). */
  readonly group: string;
  /** The project's slug, for `project`. */
  readonly project?: string;
}

/** A note as a front end asks to file it: agentm's save input, with the scope instead of a group. */
export interface FileNoteInput extends SaveNoteInput {
  /**
   * Default `project`: in a repository bound to a project, the note is filed under the project's folder
   * (`desk/projects/<slug>`), where recall in that project finds it first; without a project it is
   * global. `global` files it in the memory space, seen by every project. An explicit `group` wins.
   */
  readonly scope?: NoteScope;
}

/** A filed note: what was written, and where it was filed. */
export interface FiledNote extends BuiltNote {
  readonly filing: NoteFiling;
}

/**
 * The one filing rule of every front end (the CLI's `save`, the MCP `save` tool, VS Code, Claude Code's
 * hooks): an explicit group as given; else, in `project` scope (the default) with a project, the
 * project's folder; else the memory space. A project folder a group cannot hold (upper-case letters or
 * dots, as a `github.repo` name may have) is a `NoteValidationError` naming the way out.
 */
export async function noteFiling(
  ws: WorkspaceContext,
  input: { readonly group?: string | undefined; readonly scope?: NoteScope | undefined },
): Promise<NoteFiling> {
  if (input.group !== undefined) return { scope: 'group', group: input.group };
  const slug = input.scope === 'global' ? undefined : (await ws.project())?.slug;
  if (slug === undefined) return { scope: 'global', group: ws.memorySpace };
  const key = (await ws.projectFolder(slug)).key;
  if (!GROUP_PATTERN.test(key))
    throw new NoteValidationError(
      'group',
      `this repository's project folder ${key} cannot be a note group (lower-case letters, digits and hyphens only): ` +
        'file it as a global note (agentm save --global; scope global), or set vault_project in .harness/project.json to a lower-case slug',
    );
  return { scope: 'project', group: key, project: slug };
}

async function noteOptions(ws: WorkspaceContext, now: (() => Date) | undefined): Promise<NoteOptions> {
  return { vocabulary: await ws.vocabulary(), memorySpace: ws.memorySpace, ...(now ? { now: now() } : {}) };
}

async function filed(ws: WorkspaceContext, input: FileNoteInput) {
  const { scope, ...note } = input;
  const filing = await noteFiling(ws, { group: input.group, scope });
  return { filing, note: { ...note, group: filing.group } };
}

/** A note as `saveFiledNote` would write it (validation, target and filing), without writing. */
export async function buildFiledNote(ws: WorkspaceContext, input: FileNoteInput, now?: () => Date): Promise<FiledNote> {
  const { filing, note } = await filed(ws, input);
  return { ...buildNote(note, await noteOptions(ws, now)), filing };
}

/** Files a new note by the filing rule in agentm's format; never overwrites (`NoteExistsError`). */
export async function saveFiledNote(ws: WorkspaceContext, input: FileNoteInput, now?: () => Date): Promise<FiledNote> {
  const { filing, note } = await filed(ws, input);
  return { ...(await saveNote(ws.backend, note, await noteOptions(ws, now))), filing };
}

/** Supersedes a note: archives it under the memory space and writes the new body. */
export async function evolveWorkspaceNote(
  ws: WorkspaceContext,
  input: EvolveNoteInput,
  now?: () => Date,
): Promise<EvolvedNote> {
  return evolveNote(ws.backend, input, await noteOptions(ws, now));
}

import { NoteValidationError } from '../memory/notes/errors.js';
import { GROUP_PATTERN } from '../memory/notes/validate.js';
import type { Workspace } from '../workspace/workspace.js';

/**
 * The note group of a project's folder (`desk/projects/<slug>`), where an agent's notes about this
 * repository are filed (agentm's offer-save files there too). A slug a group cannot hold (upper-case
 * letters or dots, as a `github.repo` name may have) is a `NoteValidationError` naming the way out,
 * instead of save's generic "invalid group".
 */
export async function projectGroup(ws: Workspace, slug: string): Promise<string> {
  const key = (await ws.projectFolder(slug)).key;
  if (GROUP_PATTERN.test(key)) return key;
  throw new NoteValidationError(
    'group',
    `this repository's project folder ${key} cannot be a note group (lower-case letters, digits and hyphens only): ` +
      'give the note a group (e.g. memory), or set vault_project in .harness/project.json to a lower-case slug',
  );
}

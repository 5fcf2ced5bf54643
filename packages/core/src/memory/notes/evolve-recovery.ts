import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Locator } from '../../seam/locator.js';
import { parseNote, type ParsedNote } from './parse.js';

/**
 * How an evolve interrupted by a crash is finished by running it again. An evolve writes the archive
 * first, then the successor (and, renaming, removes the old file): a crash can leave the archive with
 * the note unchanged, or, renaming, the successor beside the old note. The old text is never lost
 * that way (writing the successor first would lose it), so a re-run recognizes what the crash left and
 * completes it instead of archiving the same note twice.
 */

/** `<name>.<YYYYMMDD>[-N].md`: the names `evolveNote` gives archives of a note called `<name>`. */
const ARCHIVE_SUFFIX = /^\d{8}(-\d+)?\.md$/;
const SUPERSEDED_KEY = /^superseded_(by|at|reason):/;

/**
 * The note an archive was made from: the archive without the `superseded_*` fields and with its status
 * back to `active` (only active notes are archived). Undefined when the text has no frontmatter.
 */
export function unmarkSuperseded(archived: string): string | undefined {
  const eol = archived.includes('\r\n') && !archived.startsWith('---\n') ? '\r\n' : '\n';
  const lines = archived.split(eol);
  const close = lines.indexOf('---', 1);
  if (lines[0] !== '---' || close < 0) return undefined;
  const head = lines
    .slice(1, close)
    .filter((l) => !SUPERSEDED_KEY.test(l))
    .map((l) => (l === 'status: superseded' ? 'status: active' : l));
  return ['---', ...head, ...lines.slice(close)].join(eol);
}

/**
 * An archive of exactly `text` (the note at `note`, still active) in the note's archive folder: left
 * by an evolve that crashed before writing the successor. Byte equality of the whole note is the
 * signature: an archive of an earlier version differs at least in its dates or `supersedes`.
 */
export async function findUnfinishedArchive(
  backend: StorageBackend,
  space: string,
  note: Locator,
  text: string,
): Promise<{ locator: Locator; text: string } | undefined> {
  const folder = backend.resolve(`${space}/_archive/${note.key}`).parent;
  const prefix = `${note.name}.`;
  for (const child of await backend.list(folder)) {
    if (!child.name.startsWith(prefix) || !ARCHIVE_SUFFIX.test(child.name.slice(prefix.length))) continue;
    const archived = await readOrUndefined(backend, child);
    if (archived !== undefined && unmarkSuperseded(archived) === text) return { locator: child, text: archived };
  }
  return undefined;
}

/**
 * Whether `current` (the note at the evolve's target) already is the successor this evolve would
 * write: active, the same body (fingerprint), and superseding an archive of `old` that names it. Then
 * the evolve completed before (a crash after it, or a second run) and running it again changes nothing.
 */
export async function isEvolvedAlready(
  backend: StorageBackend,
  space: string,
  old: Locator,
  target: Locator,
  current: ParsedNote,
  fingerprint: string,
): Promise<Locator | undefined> {
  if (current.status !== 'active' || current.fingerprint !== fingerprint || current.supersedes === undefined)
    return undefined;
  if (!current.supersedes.startsWith(`${space}/_archive/${old.key}.`)) return undefined;
  const archive = backend.resolve(current.supersedes);
  const archived = await readOrUndefined(backend, archive);
  if (archived === undefined) return undefined;
  return parseNote(archived).supersededBy === target.key ? archive : undefined;
}

async function readOrUndefined(backend: StorageBackend, locator: Locator): Promise<string | undefined> {
  try {
    return await backend.read(locator);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

import type { StorageBackend } from '../../seam/backend.js';
import { withBackendLock } from '../../seam/backend-lock.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Locator } from '../../seam/locator.js';
import { contentHash } from '../../write-protocol/content-hash.js';
import { NoteEvolveError } from './errors.js';
import { unmarkSuperseded } from './evolve-recovery.js';
import { parseNote } from './parse.js';

/**
 * Evolves a crash interrupted between their writes, found and finished (issue 20). An evolve writes the
 * archive (the old text marked superseded) first, then the successor, and — renaming — removes the old
 * note last. Killed in between, it leaves an archive that says "superseded" beside a note that still
 * holds exactly the archived text. `agentm doctor` reports such evolves and `doctor --fix` finishes each
 * under the store's lock: forward when the successor was written (the old note is removed, as the evolve
 * would have), back when it was not (the archive, a copy of the note that is still there, is removed:
 * the new text died with the process, so the evolve is run again).
 */
export interface HalfDoneEvolve {
  /** The archive the interrupted evolve wrote. */
  readonly archive: Locator;
  /** The note it archived, still holding the archived text. */
  readonly note: Locator;
  /** The renamed successor, when the evolve wrote it before it was killed. */
  readonly successor: Locator | undefined;
  /** How `finishHalfDoneEvolve` completes it. */
  readonly finish: 'remove-note' | 'remove-archive';
}

/** `<archive folder>/<note key>.<YYYYMMDD>[-N].md`: what `evolveNote` names archives. */
const ARCHIVE_NAME = /^(.+)\.\d{8}(?:-\d+)?\.md$/;

async function readOrUndefined(backend: StorageBackend, locator: Locator): Promise<string | undefined> {
  try {
    return await backend.read(locator);
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

/** A half-done evolve and the bytes it was judged on (what a removal compares against). */
interface Inspected extends HalfDoneEvolve {
  readonly archiveHash: string;
  readonly noteHash: string;
}

/** The interrupted evolve `archive` records, if it is one (see `HalfDoneEvolve`). */
async function inspectArchive(
  backend: StorageBackend,
  archiveFolder: string,
  archive: Locator,
): Promise<Inspected | undefined> {
  const noteKey = ARCHIVE_NAME.exec(archive.key.slice(archiveFolder.length + 1))?.[1];
  if (noteKey === undefined) return undefined;
  const archived = await readOrUndefined(backend, archive);
  if (archived === undefined) return undefined;
  const marked = parseNote(archived);
  if (marked.status !== 'superseded' || marked.supersededBy === undefined) return undefined;
  const note = backend.resolve(noteKey);
  const current = await readOrUndefined(backend, note);
  if (current === undefined || unmarkSuperseded(archived) !== current) return undefined;
  const hashes = { archiveHash: contentHash(archived), noteHash: contentHash(current) };
  if (marked.supersededBy !== note.key) {
    const successor = backend.resolve(marked.supersededBy);
    const text = await readOrUndefined(backend, successor);
    if (text !== undefined && parseNote(text).supersedes === archive.key)
      return { archive, note, successor, finish: 'remove-note', ...hashes };
  }
  return { archive, note, successor: undefined, finish: 'remove-archive', ...hashes };
}

/**
 * Every half-done evolve under the memory space `space` (its `_archive/` folder), by archive key. Reads
 * only; the walk is a loop (no recursion on folder depth).
 */
export async function findHalfDoneEvolves(backend: StorageBackend, space = 'memory'): Promise<HalfDoneEvolve[]> {
  const folder = `${space}/_archive`;
  const found: HalfDoneEvolve[] = [];
  const pending = [backend.resolve(folder)];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for (const child of await backend.list(dir)) {
      if (!child.name.endsWith('.md')) {
        pending.push(child); // a folder (a file lists as empty)
        continue;
      }
      const half = await inspectArchive(backend, folder, child);
      if (half) found.push({ archive: half.archive, note: half.note, successor: half.successor, finish: half.finish });
    }
  }
  return found.sort((a, b) => (a.archive.key < b.archive.key ? -1 : 1));
}

/**
 * Finishes one half-done evolve under the store's lock, after checking again that it still is one (an
 * evolve re-run or a person may have finished it meanwhile: then nothing is done and false is
 * returned). Each removal is a compare-and-swap on the bytes just checked.
 */
export async function finishHalfDoneEvolve(
  backend: StorageBackend,
  half: HalfDoneEvolve,
  space = 'memory',
): Promise<boolean> {
  const remove = backend.remove?.bind(backend);
  if (remove === undefined)
    throw new NoteEvolveError('this backend cannot remove files, so an interrupted evolve cannot be finished here');
  return withBackendLock(backend, async () => {
    const now = await inspectArchive(backend, `${space}/_archive`, half.archive);
    if (now === undefined || now.finish !== half.finish) return false;
    if (now.finish === 'remove-note') await remove(now.note, { expectHash: now.noteHash });
    else await remove(now.archive, { expectHash: now.archiveHash });
    return true;
  });
}

/** One line for a person: which note, what was found, and what finishing it does (`done`: did). */
export function describeHalfDoneEvolve(half: HalfDoneEvolve, done = false): string {
  const removed = done ? 'was removed' : 'is to be removed';
  return half.finish === 'remove-note'
    ? `${half.note.key}: its new version ${half.successor!.key} was written; the old note ${removed}`
    : `${half.note.key}: its new version was never written; the note is unchanged and its archive ${half.archive.key} ${removed} (run the evolve again)`;
}

import type { StorageBackend } from '../../seam/backend.js';
import { withBackendLock } from '../../seam/backend-lock.js';
import { NotFoundError } from '../../seam/errors.js';
import { Locator } from '../../seam/locator.js';
import { contentHash } from '../../write-protocol/content-hash.js';
import { NoteEvolveError, NoteValidationError } from './errors.js';
import { compactDate, localDate } from './format.js';
import { findUnfinishedArchive, isEvolvedAlready } from './evolve-recovery.js';
import { noteFingerprint } from './fingerprint.js';
import { parseNote } from './parse.js';
import { buildNote, type BuiltNote, type NoteOptions } from './save.js';
import { assertSlug } from './validate.js';
import { yamlScalar } from './yaml-scalar.js';

/** Archive suffixes tried after the plain date: `-2` … `-99`. */
export const ARCHIVE_MAX_SUFFIX = 99;

export interface EvolveNoteInput {
  /** The active note to supersede. */
  readonly locator: Locator;
  /** The new body. */
  readonly body: string;
  /** Why it is superseded (required, recorded as `superseded_reason`). */
  readonly reason: string;
  /** Give the new note another slug (same folder); the old file is then removed. */
  readonly newSlug?: string;
  /** Replace the tags (default: keep them). */
  readonly tags?: readonly string[];
}

export interface EvolvedNote {
  readonly note: BuiltNote;
  readonly archive: Locator;
}

/** The old note's text marked superseded: `status: superseded`, plus `superseded_by/at/reason` before the closing `---`. */
function markSuperseded(text: string, by: string, at: string, reason: string): string {
  const eol = text.includes('\r\n') && !text.startsWith('---\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const close = lines.indexOf('---', 1);
  if (lines[0] !== '---' || close < 0)
    throw new NoteEvolveError('the note has no frontmatter block to mark superseded');
  const head = lines.slice(1, close).map((l) => (/^status:/.test(l) ? 'status: superseded' : l));
  // A reason is one line (agentm's single-quoted reason folds its line breaks into spaces when read).
  const oneLine = reason.replace(/\s+/g, ' ').trim();
  const quoted = { agentmEvolveQuotes: true };
  head.push(
    `superseded_by: ${yamlScalar(by, quoted)}`,
    `superseded_at: ${yamlScalar(at, { ...quoted, timestamp: true })}`,
    `superseded_reason: ${yamlScalar(oneLine, quoted)}`,
  );
  return ['---', ...head, ...lines.slice(close)].join(eol);
}

/** The finished result when the note at `target` already is this evolve's successor (see `isEvolvedAlready`). */
async function evolvedAlready(
  backend: StorageBackend,
  space: string,
  input: EvolveNoteInput,
  target: Locator,
  text?: string,
): Promise<EvolvedNote | undefined> {
  let content = text;
  if (content === undefined) {
    try {
      content = await backend.read(target);
    } catch (error) {
      if (error instanceof NotFoundError) return undefined;
      throw error;
    }
  }
  const current = parseNote(content);
  if (input.tags !== undefined && current.tags.join('\n') !== input.tags.join('\n')) return undefined;
  const archive = await isEvolvedAlready(backend, space, input.locator, target, current, noteFingerprint(input.body));
  return archive && { note: { locator: target, content, fields: {} }, archive };
}

/** The hash of the note at `target` when it supersedes `archive` (a crashed rename's successor). */
async function successorOf(backend: StorageBackend, target: Locator, archive: Locator): Promise<string | undefined> {
  try {
    const text = await backend.read(target);
    return parseNote(text).supersedes === archive.key ? contentHash(text) : undefined;
  } catch (error) {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  }
}

async function freeArchiveLocator(
  backend: StorageBackend,
  space: string,
  old: Locator,
  date: string,
): Promise<Locator> {
  for (let n = 1; n <= ARCHIVE_MAX_SUFFIX; n++) {
    const candidate = backend.resolve(`${space}/_archive/${old.key}.${date}${n === 1 ? '' : `-${n}`}.md`);
    if (!(await backend.exists(candidate))) return candidate;
  }
  throw new NoteEvolveError(
    `${old.key} has been archived ${ARCHIVE_MAX_SUFFIX} times today; wait a day or archive by hand`,
  );
}

/**
 * Supersedes an active note, all under one lock acquisition (the vault's lock is re-entrant): the old
 * note is archived to `memory/_archive/<old path>.<YYYYMMDD>[-N].md` with `status: superseded`,
 * `superseded_by`, `superseded_at` and `superseded_reason`; the new note (same kind, group, tags and
 * always-load flag, new body) is written at the same path — or at `<same folder>/<newSlug>.md`, the
 * old file then removed — with `supersedes: <archive path>`. Every write is a CAS, so a note changed
 * meanwhile by anyone else is left alone (`ConcurrentModificationError`).
 *
 * Crash-safe by re-running: the archive is written first (the old text is never lost), and a re-run
 * finishes what a crash left (see evolve-recovery.ts) — it reuses an archive of exactly the current
 * note instead of archiving it twice, replaces a successor a crashed rename wrote, and is a no-op when
 * the note already is the successor with this body.
 */
export async function evolveNote(
  backend: StorageBackend,
  input: EvolveNoteInput,
  options: NoteOptions = {},
): Promise<EvolvedNote> {
  if (typeof input.reason !== 'string' || input.reason.trim() === '') {
    throw new NoteValidationError(
      'reason',
      'evolve needs a non-empty reason (why the note is superseded); it is recorded in the archive',
    );
  }
  if (input.newSlug !== undefined) assertSlug(input.newSlug);
  const space = options.memorySpace ?? 'memory';
  const now = options.now ?? new Date();
  return withBackendLock(backend, async () => {
    const renamed = input.newSlug === undefined ? undefined : input.locator.parent.child(`${input.newSlug}.md`);
    let text: string;
    try {
      text = await backend.read(input.locator);
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      // Renaming removes the old note last: absent, with the successor already in place, it is done.
      const done = renamed && (await evolvedAlready(backend, space, input, renamed));
      if (done) return done;
      throw new NoteEvolveError(`there is no note at ${input.locator.key} to evolve; save a new note instead`);
    }
    const oldHash = contentHash(text);
    const old = parseNote(text);
    if (renamed === undefined || input.newSlug === old.slug) {
      const done = await evolvedAlready(backend, space, input, input.locator, text);
      if (done) return done;
    }
    if (old.status !== 'active')
      throw new NoteEvolveError(
        `${input.locator.key} is ${old.status ?? 'without a status'}, not active: only active notes can be superseded`,
      );
    const renaming = input.newSlug !== undefined && input.newSlug !== old.slug;
    if (renaming && old.alwaysLoad)
      throw new NoteEvolveError(
        `${input.locator.key} is an always-load note: it cannot be renamed (evolve it under the same slug)`,
      );
    if (old.kind === undefined || old.slug === undefined)
      throw new NoteEvolveError(
        `${input.locator.key} has no kind/type or slug in its frontmatter; fix the note by hand first`,
      );
    // An archive of exactly this note, with no successor: a crashed evolve's; finish it, never archive twice.
    const pending = await findUnfinishedArchive(backend, space, input.locator, text);
    const archive = pending?.locator ?? (await freeArchiveLocator(backend, space, input.locator, compactDate(now)));
    const target = renaming ? input.locator.parent.child(`${input.newSlug}.md`) : input.locator;
    const built = buildNote(
      {
        kind: old.kind,
        slug: renaming ? input.newSlug! : old.slug,
        body: input.body,
        group: old.group ?? space,
        tags: input.tags ?? old.tags,
        alwaysLoad: old.alwaysLoad,
        supersedes: archive.key,
        ...(old.lifecycleTier === 'durable' || old.lifecycleTier === 'volatile'
          ? { lifecycleTier: old.lifecycleTier }
          : {}),
      },
      { ...options, now, memorySpace: space },
    );
    const remove = backend.remove?.bind(backend);
    if (renaming && remove === undefined)
      throw new NoteEvolveError(
        'this backend cannot remove files, so a note cannot be renamed by evolve; evolve it under the same slug',
      );
    // Renaming onto an existing note is refused, unless it is the successor a crashed evolve wrote.
    const successor = renaming && pending ? await successorOf(backend, target, archive) : undefined;
    if (renaming && successor === undefined && (await backend.exists(target)))
      throw new NoteEvolveError(`cannot rename to ${target.key}: a note already exists there`);
    const archived = markSuperseded(text, target.key, localDate(now), input.reason);
    if (pending === undefined) await backend.write(archive, archived, { expectHash: null });
    else if (pending.text !== archived)
      await backend.write(archive, archived, { expectHash: contentHash(pending.text) });
    // Undo what this call wrote, so a CAS lost half-way leaves the store as it was (no partial evolve).
    const undo: Array<() => Promise<void>> = pending
      ? []
      : [() => remove?.(archive, { expectHash: contentHash(archived) }) ?? Promise.resolve()];
    try {
      if (!renaming) {
        await backend.write(target, built.content, { expectHash: oldHash });
      } else {
        await backend.write(target, built.content, { expectHash: successor ?? null });
        if (successor === undefined) undo.unshift(() => remove!(target, { expectHash: contentHash(built.content) }));
        await remove!(input.locator, { expectHash: oldHash });
      }
    } catch (error) {
      for (const step of undo) await step().catch(() => undefined);
      throw error;
    }
    return { note: { ...built, locator: target }, archive };
  });
}

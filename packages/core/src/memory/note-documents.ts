import type { Info } from '../seam/info.js';
import type { Locator } from '../seam/locator.js';
import { classifySource } from './documents/layout.js';
import { parseTimestamp } from './documents/timestamps.js';
import { noteDefaults } from './documents/source-documents.js';
import type { IndexDocument } from './documents/document.js';
import { localDate } from './notes/format.js';
import { parseNote } from './notes/parse.js';

const DATE_ONLY = /^\s*\d{4}-\d{2}-\d{2}\s*$/;

/**
 * The time a frontmatter date stands for, as precisely as can be known: agentm writes the local day
 * only (`updated: 2026-11-25`), so when the file's mtime falls on that day the mtime is the time of
 * the change (a note saved a minute ago is a minute old, not hours); otherwise (a copy, a sync that
 * reset the mtime) the day's start. A date-time in the frontmatter is taken as written.
 */
export function preciseTime(value: string | undefined, mtimeMs: number): number | undefined {
  if (!value) return undefined;
  const ms = parseTimestamp(value);
  if (
    ms !== undefined &&
    DATE_ONLY.test(value) &&
    Number.isFinite(mtimeMs) &&
    localDate(new Date(mtimeMs)) === value.trim()
  )
    return mtimeMs;
  return ms;
}

const HEADING = /^#{1,6}\s+(.+?)\s*#*\s*$/;

/**
 * The title of a note's body: its first line when that is a heading (written as the title), else that
 * line itself cut to 100 characters (a made-up title: `untitled`). Undefined for an empty body.
 */
function titleOf(body: string): { title: string; untitled: boolean } | undefined {
  // The first non-blank line, found without splitting the whole body into lines.
  for (let at = 0; at < body.length;) {
    const end = body.indexOf('\n', at);
    const line = body.slice(at, end < 0 ? body.length : end).trim();
    if (line !== '') {
      const heading = HEADING.exec(line)?.[1]?.trim();
      return heading ? { title: heading, untitled: false } : { title: line.slice(0, 100), untitled: true };
    }
    if (end < 0) break;
    at = end + 1;
  }
  return undefined;
}

/**
 * The index document of a memory note in agentm's format (DESIGN §12), read with the notes module's
 * parser: kind from `type`/`kind`, status, tags, `always_load`, dates (`last_reinforced` beats
 * `updated` as the recency clock of a belief; see preciseTime), fingerprint, provenance, belief
 * confidence and the note it supersedes. Fields
 * the note lacks come from its place in the layout (owner from the project folder, kind from the type
 * directory, dates from the file's mtime). The plug for `MemoryIndex.open({ toDocument })`.
 */
export function noteToDocument(locator: Locator, text: string, info: Info): IndexDocument {
  const note = parseNote(text);
  // A recorded fingerprint saves hashing the body (a noticeable share of a cold build).
  const doc: Mutable<IndexDocument> = noteDefaults(
    locator,
    note.body,
    info,
    classifySource(locator.key),
    note.fingerprint,
  );
  const date = (value: string | undefined) => (value ? parseTimestamp(value) : undefined);
  // Filled in place (the defaults are this call's own object): a cold build maps every note here.
  if (note.kind !== undefined) doc.kind = note.kind;
  if (note.status !== undefined) doc.status = note.status;
  doc.tags = note.tags;
  doc.alwaysLoad = note.alwaysLoad || doc.alwaysLoad;
  doc.createdMs = date(note.created) ?? doc.createdMs;
  doc.updatedMs = date(note.lastReinforced) ?? preciseTime(note.updated, info.mtimeMs) ?? doc.updatedMs;
  const written = typeof note.fields['title'] === 'string' ? note.fields['title'].trim() : '';
  const title = written !== '' ? { title: written, untitled: false } : titleOf(note.body);
  if (title) {
    doc.title = title.title;
    doc.untitled = title.untitled;
  }
  doc.derivedFrom = note.derivedFrom;
  doc.confidence = note.confidence !== undefined && Number.isFinite(note.confidence) ? note.confidence : undefined;
  if (note.supersedes) doc.supersedes = note.supersedes;
  return doc;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

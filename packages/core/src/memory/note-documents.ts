import type { Info } from '../seam/info.js';
import type { Locator } from '../seam/locator.js';
import { classifySource } from './documents/layout.js';
import { parseTimestamp } from './documents/timestamps.js';
import { noteDefaults } from './documents/source-documents.js';
import type { IndexDocument } from './documents/document.js';
import { parseNote } from './notes/parse.js';

/** The first Markdown heading, else the first non-blank line (cut to 100 characters). */
function titleOf(body: string): string | undefined {
  const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(body)?.[1]?.trim();
  return (
    heading ||
    body
      .split(/\r?\n/)
      .find((l) => l.trim() !== '')
      ?.trim()
      .slice(0, 100)
  );
}

/**
 * The index document of a memory note in agentm's format (DESIGN §12), read with the notes module's
 * parser: kind from `type`/`kind`, status, tags, `always_load`, dates (`last_reinforced` beats
 * `updated` as the recency clock of a belief), fingerprint, provenance and belief confidence. Fields
 * the note lacks come from its place in the layout (owner from the project folder, kind from the type
 * directory, dates from the file's mtime). The plug for `MemoryIndex.open({ toDocument })`.
 */
export function noteToDocument(locator: Locator, text: string, info: Info): IndexDocument {
  const note = parseNote(text);
  // A recorded fingerprint saves hashing the body (a noticeable share of a cold build).
  const base = noteDefaults(locator, note.body, info, classifySource(locator.key), note.fingerprint);
  const date = (value: string | undefined) => (value ? parseTimestamp(value) : undefined);
  return {
    ...base,
    kind: note.kind ?? base.kind,
    status: note.status ?? base.status,
    tags: note.tags,
    alwaysLoad: note.alwaysLoad || base.alwaysLoad,
    createdMs: date(note.created) ?? base.createdMs,
    updatedMs: date(note.lastReinforced) ?? date(note.updated) ?? base.updatedMs,
    title: titleOf(note.body) ?? base.title,
    derivedFrom: note.derivedFrom,
    confidence: note.confidence !== undefined && Number.isFinite(note.confidence) ? note.confidence : undefined,
  };
}

import { NoteValidationError } from './errors.js';
import { formatNoteField, NOTE_KEY_ORDER, type NoteFields, type NoteKey } from './format.js';

interface Entry {
  readonly key: string | undefined;
  readonly lines: string[];
}

const KEY_LINE = /^([A-Za-z_][\w.-]*):/;

/** Frontmatter lines grouped by top-level key (continuation lines stay with their key). */
function entriesOf(lines: readonly string[]): Entry[] {
  const entries: Entry[] = [];
  for (const line of lines) {
    const key = KEY_LINE.exec(line.replace(/\r$/, ''))?.[1];
    if (key !== undefined || entries.length === 0) entries.push({ key, lines: [line] });
    else entries[entries.length - 1]!.lines.push(line);
  }
  return entries;
}

/**
 * Changes some frontmatter fields of a note and keeps everything else byte for byte (the body, keys
 * it does not know, untouched values). Known keys come out in the serializer's locked order, changed
 * ones formatted as `serializeNote` formats them (an `undefined` change removes the key); unknown keys
 * follow, in their order. For a note the serializer wrote, the result equals `serializeNote` of the
 * changed fields. Throws `NoteValidationError` when the text has no frontmatter block.
 */
export function patchNoteFields(text: string, changes: NoteFields): string {
  const eol = text.startsWith('---\r\n') ? '\r\n' : '\n';
  const lines = text.split(eol);
  const close = lines.indexOf('---', 1);
  if (lines[0] !== '---' || close < 0)
    throw new NoteValidationError(
      'frontmatter',
      'the note has no frontmatter block (--- … ---) to update; fix the note by hand first',
    );
  const entries = entriesOf(lines.slice(1, close));
  const byKey = new Map<string, string[]>();
  for (const e of entries) if (e.key !== undefined) byKey.set(e.key, [...(byKey.get(e.key) ?? []), ...e.lines]);
  const known = new Set<string>(NOTE_KEY_ORDER);
  const out: string[] = entries.filter((e) => e.key === undefined).flatMap((e) => e.lines);
  for (const key of NOTE_KEY_ORDER) {
    if (Object.prototype.hasOwnProperty.call(changes, key)) {
      const line = formatNoteField(key as NoteKey, changes[key]);
      if (line !== undefined) out.push(line);
    } else {
      out.push(...(byKey.get(key) ?? []));
    }
  }
  for (const entry of entries) if (entry.key !== undefined && !known.has(entry.key)) out.push(...entry.lines);
  return ['---', ...out, ...lines.slice(close)].join(eol);
}

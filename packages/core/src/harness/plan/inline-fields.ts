/**
 * Dataview-style inline fields: `[key:: value]` (shown) and `(key:: value)` (key hidden in Obsidian's
 * reading view). A value cannot contain the closing bracket of its own form.
 */
export interface InlineField {
  /** The key as written. */
  readonly key: string;
  /** Lower-cased key, for lookups (Dataview matches keys case-insensitively). */
  readonly name: string;
  /** The value, trimmed. */
  readonly value: string;
  /** Offsets in the text: the whole field, and the value as written (untrimmed). */
  readonly start: number;
  readonly end: number;
  readonly valueStart: number;
  readonly valueEnd: number;
}

const FIELD = /\[([\p{L}\p{N}_][\p{L}\p{N}_ -]*?)::([^\]\r\n]*)\]|\(([\p{L}\p{N}_][\p{L}\p{N}_ -]*?)::([^)\r\n]*)\)/gu;

/** Every inline field of `text`, in order. */
export function parseInlineFields(text: string): InlineField[] {
  const fields: InlineField[] = [];
  for (const m of text.matchAll(FIELD)) {
    const key = (m[1] ?? m[3])!.trim();
    const raw = m[2] ?? m[4] ?? '';
    const start = m.index;
    const valueStart = start + 1 + (m[1] ?? m[3])!.length + 2;
    fields.push({
      key,
      name: key.toLowerCase(),
      value: raw.trim(),
      start,
      end: start + m[0].length,
      valueStart,
      valueEnd: valueStart + raw.length,
    });
  }
  return fields;
}

/** The text with every inline field removed and whitespace collapsed: the human title of a step. */
export function stripInlineFields(text: string): string {
  return text.replace(FIELD, ' ').replace(/\s+/g, ' ').trim();
}

/** Whether `value` can be written inside `[key:: …]` and read back unchanged. */
export function isWritableFieldValue(value: string): boolean {
  return !/[\]\r\n]/.test(value) && value === value.trim();
}

/**
 * Sets inline fields on one line of text: an existing field (first occurrence of its key) gets its value
 * replaced in place; a new field is appended as ` [key:: value]` before any trailing whitespace.
 * Everything else in the line stays byte for byte.
 */
export function setInlineFields(text: string, updates: Readonly<Record<string, string>>): string {
  let out = text;
  const append: string[] = [];
  for (const [key, value] of Object.entries(updates)) {
    if (!isWritableFieldValue(value))
      throw new TypeError(
        `inline field ${key} cannot hold ${JSON.stringify(value)} (no "]", line breaks or outer spaces)`,
      );
    const existing = parseInlineFields(out).find((f) => f.name === key.toLowerCase());
    if (existing) {
      const raw = out.slice(existing.valueStart, existing.valueEnd);
      const lead = /^\s*/.exec(raw)![0] || ' ';
      const trail = /\s*$/.exec(raw)![0];
      out = out.slice(0, existing.valueStart) + lead + value + trail + out.slice(existing.valueEnd);
    } else {
      append.push(`[${key}:: ${value}]`);
    }
  }
  if (append.length === 0) return out;
  const body = out.replace(/[ \t]+$/, '');
  const trailing = out.slice(body.length);
  return `${body} ${append.join(' ')}${trailing}`;
}

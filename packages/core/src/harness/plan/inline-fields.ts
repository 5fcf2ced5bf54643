/**
 * Dataview-style inline fields: `[key:: value]` (shown) and `(key:: value)` (key hidden in Obsidian's
 * reading view). A value cannot contain the closing bracket of its own form.
 *
 * A plan step reads fewer of them (`STEP_FIELDS`): only the bracketed form, and only outside code
 * spans. The parenthesised form hides its key in the reading view, so a `(cmd:: …)` would run a command
 * nobody saw; a field inside a code span is shown as code, as an example, not as a setting. Both stay
 * in the line byte for byte, as text.
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

export interface InlineFieldOptions {
  /** Read `(key:: value)` too (default true: Dataview's two forms). */
  readonly parenthesised?: boolean;
  /** Ignore fields in (or crossing) code spans (default false). */
  readonly outsideCodeOnly?: boolean;
}

/** What a plan step's line is read with: bracketed fields outside code spans. */
export const STEP_FIELDS: InlineFieldOptions = Object.freeze({ parenthesised: false, outsideCodeOnly: true });

const KEY = String.raw`[\p{L}\p{N}_][\p{L}\p{N}_ -]*?`;
// The value may not contain a masked code-span character (NUL), so a field never runs into a span.
const BRACKET = new RegExp(String.raw`\[(${KEY})::([^\]\r\n\0]*)\]`, 'gu');
const BOTH = new RegExp(String.raw`\[(${KEY})::([^\]\r\n\0]*)\]|\((${KEY})::([^)\r\n\0]*)\)`, 'gu');

/**
 * The code spans of one line (CommonMark): a run of n backticks up to the next run of exactly n; an
 * unmatched run is literal text; a backslash escapes a backtick outside a span. `[start, end)` offsets.
 */
export function codeSpans(text: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 92 /* \ */) {
      i += 2;
      continue;
    }
    if (c !== 96 /* ` */) {
      i++;
      continue;
    }
    let open = i;
    while (text.charCodeAt(open) === 96) open++;
    const length = open - i;
    let close = -1;
    for (let k = open; k < text.length;) {
      if (text.charCodeAt(k) !== 96) {
        k++;
        continue;
      }
      let end = k;
      while (text.charCodeAt(end) === 96) end++;
      if (end - k === length) {
        close = end;
        break;
      }
      k = end;
    }
    if (close < 0) {
      i = open;
      continue;
    }
    spans.push([i, close]);
    i = close;
  }
  return spans;
}

/** The text with every code span's characters replaced by NUL (same length, so offsets still hold). */
function maskCodeSpans(text: string): string {
  const spans = codeSpans(text);
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const [start, end] of spans) {
    out += text.slice(at, start) + '\0'.repeat(end - start);
    at = end;
  }
  return out + text.slice(at);
}

/** Every inline field of `text`, in order (Dataview's two forms, unless `options` narrow it). */
export function parseInlineFields(text: string, options: InlineFieldOptions = {}): InlineField[] {
  const fields: InlineField[] = [];
  const scanned = options.outsideCodeOnly ? maskCodeSpans(text) : text.replace(/\0/g, ' ');
  const pattern = options.parenthesised === false ? BRACKET : BOTH;
  for (const m of scanned.matchAll(pattern)) {
    const rawKey = (m[1] ?? m[3])!;
    const start = m.index;
    const valueStart = start + 1 + rawKey.length + 2;
    const rawLength = (m[2] ?? m[4] ?? '').length;
    // Read from the original: a NUL in the text itself was only blanked for matching.
    const raw = text.slice(valueStart, valueStart + rawLength);
    fields.push({
      key: rawKey.trim(),
      name: rawKey.trim().toLowerCase(),
      value: raw.trim(),
      start,
      end: start + m[0].length,
      valueStart,
      valueEnd: valueStart + rawLength,
    });
  }
  return fields;
}

/** The text with its inline fields removed and whitespace collapsed: the human title of a step. */
export function stripInlineFields(text: string, options: InlineFieldOptions = {}): string {
  let out = '';
  let at = 0;
  for (const f of parseInlineFields(text, options)) {
    out += `${text.slice(at, f.start)} `;
    at = f.end;
  }
  return (out + text.slice(at)).replace(/\s+/g, ' ').trim();
}

/** Whether `value` can be written inside `[key:: …]` and read back unchanged (and cannot open a code span). */
export function isWritableFieldValue(value: string): boolean {
  return !/[\]\r\n`\0]/.test(value) && value === value.trim();
}

/**
 * Sets inline fields on one step line (read as `STEP_FIELDS`): an existing field (first occurrence of
 * its key) gets its value replaced in place; a new field is appended as ` [key:: value]` before any
 * trailing whitespace. Everything else in the line stays byte for byte.
 */
export function setInlineFields(text: string, updates: Readonly<Record<string, string>>): string {
  let out = text;
  const append: string[] = [];
  for (const [key, value] of Object.entries(updates)) {
    if (!isWritableFieldValue(value))
      throw new TypeError(
        `inline field ${key} cannot hold ${JSON.stringify(value)} (no "]", backtick, line breaks or outer spaces)`,
      );
    const existing = parseInlineFields(out, STEP_FIELDS).find((f) => f.name === key.toLowerCase());
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

/**
 * Text from outside (a goal, a model's step title) made safe to write into a step line: no run of two
 * colons is left (`a::b` → `a:\:b`; Markdown renders `\:` as `:`, so it still reads the same), so no
 * part of it can be read as an inline field of either form by AgentM, Dataview or anything else that
 * looks for `::`.
 */
export function neutralizeFields(text: string): string {
  return text.replace(/:(?=:)/g, ':\\');
}

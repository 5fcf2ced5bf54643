import { yamlFlowList, yamlScalar } from './yaml-scalar.js';

/**
 * agentm's note format, byte for byte: a frontmatter block in a fixed key order, a blank line, and the
 * body ending in exactly one LF (inner bytes, CRLF included, kept).
 */

/**
 * The locked key order (optional keys are omitted when unset). AgentM's belief fields follow
 * `derived_from`: `confidence`, `reinforce_count`, `last_reinforced`, then `decay_windows` (the decay
 * windows already applied since `last_reinforced`, which keeps a second consolidation run in the same
 * window from decaying the belief again).
 */
export const NOTE_KEY_ORDER = [
  'type',
  'kind',
  'status',
  'altitude',
  'created',
  'updated',
  'tags',
  'arc',
  'group',
  'slug',
  'source_url',
  'source_fetched',
  'fingerprint',
  'occurrences',
  'always_load',
  'supersedes',
  'lifecycle_tier',
  'derived_from',
  'confidence',
  'reinforce_count',
  'last_reinforced',
  'decay_windows',
  'heat_pin',
] as const;

export type NoteKey = (typeof NOTE_KEY_ORDER)[number];
export type NoteValue = string | number | boolean | readonly string[];
/** Frontmatter fields by key; unset keys are left out. */
export type NoteFields = Partial<Record<NoteKey, NoteValue>>;

/** A local date as `YYYY-MM-DD` (agentm writes the process-local date). */
export function localDate(when: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${when.getFullYear()}-${pad(when.getMonth() + 1)}-${pad(when.getDate())}`;
}

/** A local date as `YYYYMMDD` (archive names). */
export function compactDate(when: Date): string {
  return localDate(when).replace(/-/g, '');
}

/** Keys whose values are dates or times, written plain as agentm writes them (`created: 2026-11-25`). */
const TIMESTAMP_KEYS: ReadonlySet<string> = new Set(['created', 'updated', 'source_fetched', 'last_reinforced']);

function formatValue(key: NoteKey, value: NoteValue): string {
  const timestamp = TIMESTAMP_KEYS.has(key);
  if (Array.isArray(value)) return yamlFlowList(value as readonly string[], { timestamp });
  return yamlScalar(value as string | number | boolean, { timestamp });
}

/** Trailing LFs stripped and exactly one appended; everything else (leading space, inner CRLF) kept. */
export function normalizeBody(body: string): string {
  return `${body.replace(/\n+$/, '')}\n`;
}

/**
 * One frontmatter line as the serializer writes it (`key: value`, lists as `[a, b]`), every value
 * through the YAML scalar emitter (`yamlScalar`: plain where agentm writes plain and that is safe,
 * quoted otherwise); undefined when the key is left out (unset, or an empty `derived_from`).
 */
export function formatNoteField(key: NoteKey, value: NoteValue | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (key === 'derived_from' && Array.isArray(value) && value.length === 0) return undefined;
  return `${key}: ${formatValue(key, value)}`;
}

/** The note's bytes: `---`, the fields in the locked order, `---`, a blank line, the body. */
export function serializeNote(fields: NoteFields, body: string): string {
  const lines = ['---'];
  for (const key of NOTE_KEY_ORDER) {
    const line = formatNoteField(key, fields[key]);
    if (line !== undefined) lines.push(line);
  }
  lines.push('---', '', '');
  return lines.join('\n') + normalizeBody(body);
}

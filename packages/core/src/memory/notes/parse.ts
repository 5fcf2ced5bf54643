import { parse as parseYaml } from 'yaml';
import { fastFrontmatter } from './fast-frontmatter.js';

/** A note read back: every frontmatter field, the body, and the fields the engine uses, typed. */
export interface ParsedNote {
  /**
   * Every frontmatter field, scalars as their exact text (YAML failsafe schema: `slug: 007` stays
   * "007", `created: 2026-11-25` stays a string), lists as string arrays. `{}` without frontmatter.
   */
  readonly fields: Record<string, unknown>;
  /** The text after the frontmatter and its blank line (the whole text without frontmatter). */
  readonly body: string;
  readonly hasFrontmatter: boolean;
  /** Set when the frontmatter is not valid YAML; `fields` then comes from agentm's one-line `key: value` form. */
  readonly frontmatterError: string | undefined;
  /** Which field names the note's class: `type` (memory types) or `kind` (record kinds). */
  readonly kindField: 'type' | 'kind' | undefined;
  /** The value of `type` or `kind`. */
  readonly kind: string | undefined;
  readonly type: string | undefined;
  readonly status: string | undefined;
  readonly altitude: string | undefined;
  readonly created: string | undefined;
  readonly updated: string | undefined;
  readonly tags: string[];
  readonly group: string | undefined;
  readonly slug: string | undefined;
  readonly fingerprint: string | undefined;
  readonly alwaysLoad: boolean;
  readonly supersedes: string | undefined;
  readonly supersededBy: string | undefined;
  readonly lifecycleTier: string | undefined;
  readonly derivedFrom: string[];
  readonly sourceUrl: string | undefined;
  readonly confidence: number | undefined;
  readonly reinforceCount: number | undefined;
  readonly lastReinforced: string | undefined;
  /** Decay windows already applied to a belief since `last_reinforced` (undefined when absent). */
  readonly decayWindows: number | undefined;
}

const OPEN = /^---\r?\n/;
const CLOSE = /(^|\r?\n)---[ \t]*(\r?\n|$)/;

function str(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return undefined;
}

function list(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(str).filter((v): v is string => v !== undefined);
  const single = str(value);
  return single === undefined || single === '' ? [] : [single];
}

function num(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

/** Splits frontmatter from body: `[yaml, body]`, or undefined when the text has no frontmatter block. */
function split(text: string): [string, string] | undefined {
  const open = OPEN.exec(text);
  if (!open) return undefined;
  const rest = text.slice(open[0].length);
  if (/^---[ \t]*(\r?\n|$)/.test(rest)) return ['', rest.replace(/^---[ \t]*(\r?\n|$)/, '').replace(/^\r?\n/, '')];
  const close = CLOSE.exec(rest);
  if (!close) return undefined;
  const yaml = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length);
  // The format puts one blank line between the block and the body; it is not part of the body.
  return [yaml, body.replace(/^\r?\n/, '')];
}

/**
 * agentm's frontmatter line by line (`key: value`, `key: [a, b]`), for what YAML refuses but agentm
 * writes: unquoted tags such as `-` make `tags: [-]` invalid YAML.
 */
function parseLines(yaml: string): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const line of yaml.split(/\r?\n/)) {
    const m = /^([A-Za-z_][\w.-]*):[ \t]?(.*)$/.exec(line);
    if (!m) continue;
    const value = m[2]!.trim();
    const list = /^\[(.*)\]$/.exec(value);
    fields[m[1]!] = list
      ? list[1]!
          .split(',')
          .map((v) => v.trim())
          .filter((v) => v !== '')
      : value;
  }
  return fields;
}

/**
 * Parses a note (agentm's format, or any Markdown with YAML frontmatter). Never throws: text without
 * frontmatter is all body; invalid YAML sets `frontmatterError` and falls back to agentm's line form.
 */
export function parseNote(text: string): ParsedNote {
  const parts = split(text);
  let fields: Record<string, unknown> = {};
  let frontmatterError: string | undefined;
  const fast = parts ? fastFrontmatter(parts[0]) : undefined;
  if (fast) fields = fast;
  else if (parts) {
    try {
      const parsed: unknown = parseYaml(parts[0], { schema: 'failsafe' });
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        fields = parsed as Record<string, unknown>;
      else if (parsed !== null && parsed !== undefined && parsed !== '')
        frontmatterError = 'the frontmatter is not a mapping';
    } catch (error) {
      frontmatterError = (error as Error).message;
      fields = parseLines(parts[0]);
    }
  }
  const type = str(fields['type']);
  const kind = type ?? str(fields['kind']);
  const alwaysLoad = fields['always_load'];
  return {
    fields,
    body: parts ? parts[1] : text,
    hasFrontmatter: parts !== undefined,
    frontmatterError,
    kindField: type !== undefined ? 'type' : kind !== undefined ? 'kind' : undefined,
    kind,
    type,
    status: str(fields['status']),
    altitude: str(fields['altitude']),
    created: str(fields['created']),
    updated: str(fields['updated']),
    tags: list(fields['tags']),
    group: str(fields['group']),
    slug: str(fields['slug']),
    fingerprint: str(fields['fingerprint']),
    alwaysLoad: alwaysLoad === true || alwaysLoad === 'true',
    supersedes: str(fields['supersedes']),
    supersededBy: str(fields['superseded_by']),
    lifecycleTier: str(fields['lifecycle_tier']),
    derivedFrom: list(fields['derived_from']),
    sourceUrl: str(fields['source_url']),
    confidence: num(fields['confidence']),
    reinforceCount: num(fields['reinforce_count']),
    lastReinforced: str(fields['last_reinforced']),
    decayWindows: num(fields['decay_windows']),
  };
}

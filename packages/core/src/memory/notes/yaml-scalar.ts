import { Document, isSeq, parse as parseYaml, stringify } from 'yaml';
import { NoteValidationError } from './errors.js';

/**
 * One YAML scalar as frontmatter needs it: valid for every reader of a vault (YAML 1.2 parsers such as
 * Obsidian's and the `yaml` package, and PyYAML, which agentm reads notes with and which resolves YAML
 * 1.1 words such as `yes` or `2026-11-25` to non-strings), and byte-identical to agentm wherever agentm
 * writes a value plain and that is safe: `tags: [a, b]`, `group: desk/projects/agentm`, `supersedes:
 * memory/_archive/…`. The `yaml` package's emitter decides whether a plain scalar is possible; on top
 * of it a value is quoted when YAML 1.1 would read the plain text as something else, or when PyYAML's
 * scanner would stop inside it (a tab, `?` in a list, a leading `?` or `:`).
 *
 * Quoting: single quotes (agentm's style, `'` doubled); double quotes with JSON escapes (valid YAML
 * 1.2 and PyYAML) only for text single quotes cannot hold: line breaks, tabs and other non-printables.
 */

export interface ScalarOptions {
  /** `flow` for an item of an inline list (`[a, b]`), where `,[]{}` also end a plain scalar. */
  readonly context?: 'block' | 'flow';
  /**
   * The value is a date or time (`created`, `last_reinforced`, …): agentm writes `2026-11-25` plain,
   * which PyYAML reads as a date and YAML 1.2 as the same text, so a YAML 1.1 timestamp stays plain.
   */
  readonly timestamp?: boolean;
  /**
   * Also single-quote wherever agentm's evolve does (`:`, `#`, `'`, `"` anywhere in the value), so the
   * fields evolve adds read the same line for line as agentm's.
   */
  readonly agentmEvolveQuotes?: boolean;
}

/** Characters YAML cannot hold unescaped (c-printable, minus tab and line breaks, which a one-line field cannot hold either). */
const NEEDS_ESCAPE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const AGENTM_EVOLVE_QUOTES = /[:#'"\n]/;
/** A YAML 1.1 timestamp (what PyYAML resolves to a date or datetime). */
const TIMESTAMP_11 =
  /^\d{4}-\d\d?-\d\d?(?:(?:[Tt]|[ \t]+)\d\d?:\d\d:\d\d(?:\.\d*)?(?:[ \t]*(?:Z|[-+]\d\d?(?::\d\d)?))?)?$/;

function doubleQuoted(value: string): string {
  // JSON strings are YAML 1.2 double-quoted scalars; escape what JSON leaves raw but YAML does not print.
  return JSON.stringify(value).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

function singleQuoted(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

/** What the `yaml` package's emitter writes for the value in this context. */
function emitted(value: string, context: 'block' | 'flow'): string {
  if (context === 'block') return stringify(value, { lineWidth: 0, singleQuote: true }).replace(/\n$/, '');
  const doc = new Document([value]);
  if (isSeq(doc.contents)) doc.contents.flow = true;
  const text = doc.toString({ lineWidth: 0, singleQuote: true, flowCollectionPadding: false }).replace(/\n$/, '');
  return text.slice(1, -1);
}

/** Whether YAML 1.1 (PyYAML) reads the plain text back as this same string. */
function sameIn11(value: string, timestamp: boolean): boolean {
  if (timestamp && TIMESTAMP_11.test(value)) return true;
  try {
    return parseYaml(value, { version: '1.1', logLevel: 'error' }) === value;
  } catch {
    return false;
  }
}

/**
 * PyYAML's plain-scalar scanner stops at a tab, and in a flow list at `?`; it starts no plain scalar
 * with `?` or `:` in a list.
 */
function pyyamlPlain(value: string, context: 'block' | 'flow'): boolean {
  // `=` and `<<` resolve to YAML 1.1's value and merge tags, which PyYAML's safe loader cannot construct.
  if (value === '=' || value === '<<' || value.includes('\t')) return false;
  if (context === 'flow' && (value.includes('?') || value.startsWith(':'))) return false;
  return !/^[?:](?:\s|$)/.test(value);
}

/**
 * The YAML text of one scalar value (without its key). Strings are plain when that is safe for YAML
 * 1.2 and PyYAML alike, else quoted; booleans and finite numbers are plain. A string with a lone
 * UTF-16 surrogate, or a non-finite number, cannot be written to a UTF-8 file as itself and is refused
 * (`NoteValidationError`).
 */
export function yamlScalar(value: string | number | boolean, options: ScalarOptions = {}): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new NoteValidationError('frontmatter', `${value} has no YAML number form; write a finite number`);
    return String(value);
  }
  if (LONE_SURROGATE.test(value))
    throw new NoteValidationError(
      'frontmatter',
      `${JSON.stringify(value)} holds a lone UTF-16 surrogate, which a UTF-8 file cannot store; remove it`,
    );
  const context = options.context ?? 'block';
  if (value.includes('\n') || value.includes('\r') || value.includes('\t') || NEEDS_ESCAPE.test(value))
    return doubleQuoted(value);
  if (options.agentmEvolveQuotes && AGENTM_EVOLVE_QUOTES.test(value)) return singleQuoted(value);
  // Most values are words and paths: a letter first and no indicator anywhere is plain in YAML 1.2 and
  // 1.1 alike unless it is one of the words either reads as a boolean or null (numbers, dates and
  // `.inf` start with a digit, a sign or a dot; `e5` and `e-0`, which a lenient 1.1 float reads as
  // numbers, are left to the emitter).
  if (SIMPLE_WORD.test(value) && !/^[eE][-+]?\d+$/.test(value))
    return KEYWORD.test(value) ? singleQuoted(value) : value;
  const key = `${context}${options.timestamp === true ? 't' : ''}|${value}`;
  let text = memo.get(key);
  if (text === undefined) {
    const plain = emitted(value, context);
    text =
      plain === value && sameIn11(value, options.timestamp === true) && pyyamlPlain(value, context)
        ? value
        : singleQuoted(value);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, text);
  }
  return text;
}

const SIMPLE_WORD = /^[A-Za-z][A-Za-z0-9_./-]*$/;
/** The words YAML 1.2 (true/false/null) or YAML 1.1 (also yes/no/on/off/y/n) reads as booleans or null. */
const KEYWORD = /^(?:y|n|yes|no|on|off|true|false|null)$/i;
/** Emitter decisions for the values seen lately (dates, groups and tags repeat from note to note). */
const memo = new Map<string, string>();
const MEMO_LIMIT = 2048;

/** An inline list, `[a, b]` (`[]` when empty), each item a flow-context scalar. */
export function yamlFlowList(values: readonly string[], options: Omit<ScalarOptions, 'context'> = {}): string {
  return `[${values.map((v) => yamlScalar(v, { ...options, context: 'flow' })).join(', ')}]`;
}

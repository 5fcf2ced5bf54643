export const DEFAULT_LOOP_REPEAT_THRESHOLD = 3;
export const LOOP_TOTAL_THRESHOLD = 5;

function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

const SHORT: Readonly<Record<string, string>> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** JSON text the way Go's encoder writes it: HTML-safe (`<`, `>`, `&`, U+2028/9 escaped), other controls as `\u00XX`. */
function goJsonString(s: string): string {
  let out = '"';
  for (const ch of s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')) {
    const code = ch.codePointAt(0)!;
    if (SHORT[ch]) out += SHORT[ch];
    else if (code < 0x20 || ch === '<' || ch === '>' || ch === '&' || code === 0x2028 || code === 0x2029)
      out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function canonicalValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return goJsonString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalValue).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => compareUtf8(a, b));
  return `{${entries.map(([k, v]) => `${goJsonString(k)}:${canonicalValue(v)}`).join(',')}}`;
}

/**
 * Canonical tool arguments: trimmed; empty → ''; JSON → compact with object keys sorted by byte order
 * (so key order does not matter), numbers in shortest form; not JSON → the trimmed raw text.
 */
export function canonicalArgs(raw: string): string {
  const trimmed = raw.trim();
  if (trimmed === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
  return canonicalValue(parsed);
}

/** A call's signature: trimmed tool name, NUL, canonical arguments. */
export function callSignature(toolName: string, rawArgs: string): string {
  return `${toolName.trim()}\u0000${canonicalArgs(rawArgs)}`;
}

/**
 * Trips on the same call repeated `threshold` times in a row (default 3: two chances to correct after a
 * validation error) or 5 times in one turn (A/B/A/B thrashing the consecutive count misses).
 */
export class LoopDetector {
  readonly threshold: number;
  #last: string | undefined;
  #repeats = 0;
  readonly #totals = new Map<string, number>();

  constructor(threshold = DEFAULT_LOOP_REPEAT_THRESHOLD) {
    this.threshold = threshold > 0 ? threshold : DEFAULT_LOOP_REPEAT_THRESHOLD;
  }

  /** Records one call; true when the loop should stop. */
  observe(signature: string): boolean {
    const total = (this.#totals.get(signature) ?? 0) + 1;
    this.#totals.set(signature, total);
    if (total >= LOOP_TOTAL_THRESHOLD) return true;
    if (signature === this.#last) this.#repeats++;
    else {
      this.#last = signature;
      this.#repeats = 1;
    }
    return this.#repeats >= this.threshold;
  }
}

/**
 * A fast reader for the frontmatter agentm writes — one `key: value` or `key: [a, b]` per line, plain
 * words — that gives exactly what the YAML parser (failsafe schema) gives for such text, and declines
 * (undefined) anything else, which then goes to the YAML parser. Parsing YAML was the largest single
 * cost of a cold index build (≈ 0.13 ms a note). Equivalence with the YAML parser is property-tested.
 */

const LINE = /^([A-Za-z_][A-Za-z0-9_.-]*): (.+)$/;
/** A plain scalar that means the same in block and flow context: no indicator first, no `: `, ` #`, quotes, brackets, commas. */
const SAFE_SCALAR = /^(?:[A-Za-z0-9_./()+=~$^]|-(?=[^\s]))(?:[^\s:#,[\]{}"'`]|:(?=[^\s,[\]{}])|#|[ ](?=[^\s#]))*$/u;
/**
 * Anything YAML does not print (C0 and C1 controls, line and paragraph separators, BOM, non-characters,
 * lone surrogates): readers differ on these (PyYAML refuses them), so the YAML parser decides.
 */
const CONTROL =
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function scalar(text: string): string | undefined {
  return SAFE_SCALAR.test(text) && !text.endsWith(':') ? text : undefined;
}

/** The fields of simple frontmatter text, or undefined when it is not simple (use the YAML parser). */
export function fastFrontmatter(yaml: string): Record<string, unknown> | undefined {
  if (yaml === '' || yaml.includes('\r') || yaml.includes('\t') || CONTROL.test(yaml)) return undefined;
  const fields: Record<string, unknown> = {};
  for (const line of yaml.split('\n')) {
    const m = LINE.exec(line);
    if (!m) return undefined;
    const key = m[1]!;
    if (Object.prototype.hasOwnProperty.call(fields, key) || key === '__proto__') return undefined;
    const value = m[2]!;
    if (value.startsWith('[')) {
      if (!value.endsWith(']')) return undefined;
      const inner = value.slice(1, -1);
      if (inner.trim() === '') {
        if (inner !== '') return undefined;
        fields[key] = [];
        continue;
      }
      const items: string[] = [];
      for (const raw of inner.split(', ')) {
        const item = scalar(raw);
        if (item === undefined) return undefined;
        items.push(item);
      }
      fields[key] = items;
    } else {
      const item = scalar(value);
      if (item === undefined) return undefined;
      fields[key] = item;
    }
  }
  return fields;
}

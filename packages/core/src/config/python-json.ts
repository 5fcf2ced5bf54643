/**
 * JSON exactly as Python's `json.dumps(value, indent=2)` writes it (what agentm writes), plus a
 * trailing newline: 2-space indent, `": "` after keys, and every character outside printable ASCII
 * escaped as a lowercase `\uXXXX` (UTF-16 code units, so an emoji becomes a surrogate pair).
 */
export function pythonJson(value: unknown): string {
  // Non-ASCII and DEL only ever occur inside JSON strings, so escaping them globally is safe.
  return `${JSON.stringify(value, null, 2).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

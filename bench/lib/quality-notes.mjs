/**
 * A plain writer of agentm-format notes for the recall-quality sources that are not agent vaults (the
 * conversation and the vocabulary-mismatch sources): frontmatter in agentm's key order, the body as
 * given (with or without a heading), the file's mtime at the note's time, as a real save leaves it.
 */
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { noteFingerprint } from '@agentm/core/memory';
import { localDate } from './quality-vault.mjs';

export class NoteWriter {
  notes = 0;
  #keys = new Set();

  constructor(root) {
    this.root = root;
  }

  /**
   * Writes a note and returns its key. `spec`: key, type, body (Markdown, ends without a newline),
   * timeMs, tags, group (default `memory`), status, extra frontmatter lines.
   */
  note(spec) {
    if (this.#keys.has(spec.key)) throw new Error(`duplicate note key ${spec.key}`);
    const slug = spec.key.slice(spec.key.lastIndexOf('/') + 1, -3);
    const body = `${spec.body}\n`;
    const fields = [
      `type: ${spec.type ?? 'reference'}`,
      `status: ${spec.status ?? 'active'}`,
      'altitude: artifact',
      `created: ${localDate(spec.timeMs)}`,
      `updated: ${localDate(spec.timeMs)}`,
      `tags: [${(spec.tags ?? []).join(', ')}]`,
      `group: ${spec.group ?? 'memory'}`,
      `slug: ${slug}`,
      `fingerprint: ${noteFingerprint(body)}`,
      'always_load: false',
      ...(spec.extra ?? []),
    ];
    const path = join(this.root, spec.key);
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `---\n${fields.join('\n')}\n---\n\n${body}`);
    utimesSync(path, spec.timeMs / 1000, spec.timeMs / 1000);
    this.#keys.add(spec.key);
    this.notes++;
    return spec.key;
  }
}

/** Fills `{slot}` placeholders from `values` (unknown slots are left as written). */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (all, name) => (name in values ? values[name] : all));
}

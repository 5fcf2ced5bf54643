import type { IndexDocument } from '../documents/document.js';

/** Characters of text kept per document for snippets (the rest is read from the note when needed). */
export const PREVIEW_CHARS = 200;

/**
 * Field flags of a term in a document, kept in the high bits of its posting (see bm25.ts): the term
 * is in the note's title, its file name (slug), its tags, or one of its section headings. Ranking
 * gives each field its own weight; the text itself is always counted.
 */
export const FIELD_TITLE = 1;
export const FIELD_SLUG = 2;
export const FIELD_TAGS = 4;
export const FIELD_HEADINGS = 8;
export const FIELD_COUNT = 4;

/** A document's fields beside its text: `[flag, text]` pairs (empty texts left out). */
export type SearchableFields = ReadonlyArray<readonly [number, string]>;

type Searchable = Pick<IndexDocument, 'id' | 'locator' | 'title' | 'tags' | 'text' | 'untitled'>;

/**
 * The fields of a document: its title (only when it was written as one — a heading or a `title:`;
 * a title made from the first line of the text is not a field, the line is in the text already), a
 * note's file name (its slug: `pick-stdlib.md` is found by "stdlib"), its tags, and the section
 * headings of its text (but the one that is its title).
 */
export function searchableFields(doc: Searchable): SearchableFields {
  const out: Array<readonly [number, string]> = [];
  if (!doc.untitled && doc.title !== '') out.push([FIELD_TITLE, doc.title]);
  if (doc.id === doc.locator) {
    const name = doc.locator.slice(doc.locator.lastIndexOf('/') + 1).replace(/\.md$/i, '');
    if (name !== '') out.push([FIELD_SLUG, name]);
  }
  if (doc.tags.length > 0) out.push([FIELD_TAGS, doc.tags.join(' ')]);
  const headings = sectionHeadings(doc.text, doc.untitled ? undefined : doc.title);
  if (headings !== '') out.push([FIELD_HEADINGS, headings]);
  return out;
}

/** The text of the Markdown headings of `text` (ATX `#` lines), but the first one equal to `title`. */
export function sectionHeadings(text: string, title: string | undefined): string {
  let out = '';
  let skipped = title === undefined;
  for (
    let at = text.charCodeAt(0) === 35 /* # */ ? 0 : text.indexOf('\n#');
    at >= 0;
    at = text.indexOf('\n#', at + 1)
  ) {
    const from = text.charCodeAt(at) === 10 ? at + 1 : at;
    const end = text.indexOf('\n', from);
    const line = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text.slice(from, end < 0 ? text.length : end));
    if (!line) continue;
    if (!skipped && line[1] === title) {
      skipped = true;
      continue;
    }
    out += out === '' ? line[1] : `\n${line[1]}`;
  }
  return out;
}

/** Everything searchable of a document as one text: its fields and its text (what a person could search). */
export function searchableText(doc: Searchable): string {
  return [...searchableFields(doc).map(([, text]) => text), doc.text].join('\n');
}

export function previewOf(text: string): string {
  const flat = text
    .slice(0, PREVIEW_CHARS * 3)
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > PREVIEW_CHARS ? flat.slice(0, PREVIEW_CHARS) : flat;
}

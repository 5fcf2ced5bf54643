import type { IndexDocument } from '../documents/document.js';

/** Characters of text kept per document for snippets (the rest is read from the note when needed). */
export const PREVIEW_CHARS = 200;

/**
 * The fields that are tokenized for a document, in order: the title twice (it says what the note is
 * about), a note's file name (its slug: `pick-stdlib.md` is found by "stdlib"), the tags, the text
 * (always last).
 */
export function searchableParts(doc: Pick<IndexDocument, 'id' | 'locator' | 'title' | 'tags' | 'text'>): string[] {
  const name = doc.id === doc.locator ? doc.locator.slice(doc.locator.lastIndexOf('/') + 1).replace(/\.md$/i, '') : '';
  return [doc.title, doc.title, name, doc.tags.join(' '), doc.text];
}

/** The searchable parts as one text (what `tokenize` of the document sees). */
export function searchableText(doc: Pick<IndexDocument, 'id' | 'locator' | 'title' | 'tags' | 'text'>): string {
  return searchableParts(doc).join('\n');
}

export function previewOf(text: string): string {
  const flat = text
    .slice(0, PREVIEW_CHARS * 3)
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > PREVIEW_CHARS ? flat.slice(0, PREVIEW_CHARS) : flat;
}

import type { Info } from '../../seam/info.js';
import type { Locator } from '../../seam/locator.js';
import type { IndexDocument, ToDocument } from './document.js';
import { episodeDocument, parseEpisodes } from './episodes.js';
import { noteFingerprint } from '../notes/fingerprint.js';
import type { SourceClass } from './layout.js';

/**
 * The fields a note's document gets from where it sits and the file's mtime, before its own
 * frontmatter says more. Mappers start from these (the layout decides owner and always-load; a
 * frontmatter `always_load: true` may add to it). Pass the note's recorded `fingerprint` when it has
 * one: computing it is a noticeable share of a cold build.
 */
export function noteDefaults(
  locator: Locator,
  text: string,
  info: Pick<Info, 'mtimeMs'>,
  cls: SourceClass,
  fingerprint?: string,
): IndexDocument {
  return {
    id: locator.key,
    locator: locator.key,
    owner: cls.owner,
    kind: cls.typeDir,
    status: 'active',
    tags: [],
    alwaysLoad: cls.alwaysLoad,
    createdMs: info.mtimeMs,
    updatedMs: info.mtimeMs,
    title: locator.name.replace(/\.md$/i, ''),
    untitled: true,
    text,
    fingerprint: fingerprint ?? noteFingerprint(text),
    derivedFrom: [],
    // Present from the start, so a mapper that sets them keeps the object's shape (and the optimized
    // code that reads documents stays monomorphic).
    confidence: undefined,
    supersedes: undefined,
  };
}

/** Bounds on what is indexed of one source. */
export interface DocumentLimits {
  /**
   * Characters of a note (and of one progress entry) that are indexed; the rest stays in the
   * Markdown, unsearched. Default DEFAULT_MAX_NOTE_CHARS.
   */
  readonly maxNoteChars?: number | undefined;
}

/**
 * Characters of a note indexed by default (config `memory.index.max_note_chars`): far above any
 * note a person writes, far below the pasted logs and dumps that made a 40 MB note cost 1.3 GB.
 */
export const DEFAULT_MAX_NOTE_CHARS = 1_000_000;

/** The first `max` characters of `text`, cut at whitespace when there is some near the end (never inside a surrogate pair). */
export function boundedPrefix(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const space = text.slice(max - 200 > 0 ? max - 200 : 0, max).search(/\s\S*$/);
  if (space >= 0) end = Math.max(0, max - 200) + space;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return text.slice(0, end);
}

/**
 * The documents one source file holds: a progress file's episodes, or what the pluggable mapper makes
 * of a note. The layout's owner wins over the mapper's (a note under `desk/projects/x/` belongs to x;
 * a global note may be scoped by its mapper, e.g. from its `group`), and always-load is the union of
 * the layout and the mapper's answer. A huge note is indexed by its first `limits.maxNoteChars`
 * characters, a huge progress entry likewise (a progress file keeps every entry).
 */
export function documentsOf(
  cls: SourceClass,
  locator: Locator,
  text: string,
  info: Info,
  toDocument: ToDocument,
  limits: DocumentLimits = {},
): IndexDocument[] {
  const max = limits.maxNoteChars ?? DEFAULT_MAX_NOTE_CHARS;
  if (cls.role === 'progress') {
    return parseEpisodes(text, { locator: locator.key, owner: cls.owner, fallbackMs: info.mtimeMs }).map((e) =>
      episodeDocument(e.text.length > max ? { ...e, text: boundedPrefix(e.text, max) } : e),
    );
  }
  const mapped = toDocument(locator, boundedPrefix(text, max), info);
  if (mapped === undefined) return [];
  const docs = Array.isArray(mapped) ? (mapped as readonly IndexDocument[]) : [mapped as IndexDocument];
  return docs.map((doc) => {
    const owner = cls.owner || doc.owner;
    const alwaysLoad = doc.alwaysLoad || cls.alwaysLoad;
    // Usually the mapper agrees already (noteToDocument does): no copy then.
    if (doc.locator === locator.key && doc.owner === owner && doc.alwaysLoad === alwaysLoad) return doc;
    return { ...doc, locator: locator.key, owner, alwaysLoad };
  });
}

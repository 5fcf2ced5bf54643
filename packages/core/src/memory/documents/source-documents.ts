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
    text,
    fingerprint: fingerprint ?? noteFingerprint(text),
    derivedFrom: [],
  };
}

/**
 * The documents one source file holds: a progress file's episodes, or what the pluggable mapper makes
 * of a note. The layout's owner wins over the mapper's (a note under `desk/projects/x/` belongs to x;
 * a global note may be scoped by its mapper, e.g. from its `group`), and always-load is the union of
 * the layout and the mapper's answer.
 */
export function documentsOf(
  cls: SourceClass,
  locator: Locator,
  text: string,
  info: Info,
  toDocument: ToDocument,
): IndexDocument[] {
  if (cls.role === 'progress') {
    return parseEpisodes(text, { locator: locator.key, owner: cls.owner, fallbackMs: info.mtimeMs }).map(
      episodeDocument,
    );
  }
  const mapped = toDocument(locator, text, info);
  if (mapped === undefined) return [];
  const docs = Array.isArray(mapped) ? (mapped as readonly IndexDocument[]) : [mapped as IndexDocument];
  return docs.map((doc) => ({
    ...doc,
    locator: locator.key,
    owner: cls.owner || doc.owner,
    alwaysLoad: doc.alwaysLoad || cls.alwaysLoad,
  }));
}

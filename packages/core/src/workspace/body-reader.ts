import type { StorageBackend } from '../seam/backend.js';
import { NotFoundError } from '../seam/errors.js';
import { EPISODE_KIND } from '../memory/documents/document.js';
import { parseEpisodes } from '../memory/documents/episodes.js';
import { parseNote } from '../memory/notes/parse.js';

/**
 * The body phase recall shows for a memory: a note's body as the notes module parses it (frontmatter
 * removed), an episode's full entry (re-read from its progress file), read through the backend.
 * Undefined (the index's preview is shown) when the file is gone or the episode no longer in it. Each
 * file is read once per reader.
 */
export function bodyReader(
  backend: StorageBackend,
): (doc: { id: string; locator: string; kind: string }) => Promise<string | undefined> {
  const texts = new Map<string, Promise<string | undefined>>();
  const read = (key: string) => {
    let text = texts.get(key);
    if (!text) {
      text = backend.read(backend.resolve(key)).catch((error: unknown) => {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      });
      texts.set(key, text);
    }
    return text;
  };
  return async (doc) => {
    const text = await read(doc.locator);
    if (text === undefined) return undefined;
    if (doc.kind !== EPISODE_KIND) return parseNote(text).body;
    return parseEpisodes(text, { locator: doc.locator, owner: '', fallbackMs: 0 }).find((e) => e.id === doc.id)?.text;
  };
}

import type { ToDocument } from '../documents/document.js';
import { NOTE_MAPPER } from './index-types.js';

/** The mapper `MemoryIndexOptions.toDocument` names: the notes module's, loaded (with YAML) when first needed. */
export async function resolveMapper(given: ToDocument | typeof NOTE_MAPPER): Promise<ToDocument> {
  return given === NOTE_MAPPER ? (await import('../note-documents.js')).noteToDocument : given;
}

/** The mapper of a change that reads nothing: never called. */
export const NO_MAPPER: ToDocument = () => {
  throw new Error('no note is read in this change');
};

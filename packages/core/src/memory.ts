/**
 * @agentm/core/memory — the memory engine's building blocks, for a front end or benchmark that holds an
 * index itself: the derived index, recall and its phases, the layout of the spaces, notes as index
 * documents, and the note vocabulary with the checks a note's fields pass. A workspace's `recall` and
 * `fileNote` are the usual way in.
 */
export { MemoryIndex } from './memory/indexing/memory-index.js';
export { recall, type RecallItem } from './memory/recall/recall.js';
export { PHASES, type Phase } from './memory/recall/budget.js';
export { classifySource, DEFAULT_LAYOUT, type MemoryLayout } from './memory/documents/layout.js';
export type { ToDocument } from './memory/documents/document.js';
export { noteDefaults } from './memory/documents/source-documents.js';
export { noteToDocument } from './memory/note-documents.js';
export { noteFingerprint } from './memory/notes/fingerprint.js';
export { DEFAULT_VOCABULARY, resolveKind, type Vocabulary } from './memory/notes/vocabulary.js';
export { assertGroup, assertKindName, assertSlug, assertTags } from './memory/notes/validate.js';
export { NoteExistsError, NoteValidationError, StorageRulesError, UnknownKindError } from './memory/notes/errors.js';
export { RECALL_DEFAULTS } from './memory/recall/score.js';
export {
  INJECTION_FLOOR,
  RANKING_DEFAULTS,
  type InjectionFloor,
  type RankingParams,
  type RecallFormula,
} from './memory/recall/ranking.js';
export { memoriesToInject } from './memory/recall/injection.js';

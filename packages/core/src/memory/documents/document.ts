import type { Info } from '../../seam/info.js';
import type { Locator } from '../../seam/locator.js';

/** The kind the engine gives episodes (entries of progress files). */
export const EPISODE_KIND = 'episode';

/**
 * One searchable unit of memory: a note, or one episode of a progress file. What the index stores
 * and recall ranks. Everything here is derived from the Markdown and can be rebuilt at any time.
 */
export interface IndexDocument {
  /** Store key: the note's locator key, or `<progress locator key>#<episode fingerprint prefix>`. */
  readonly id: string;
  /** Locator key of the source file (the note, or the progress file holding the episode). */
  readonly locator: string;
  /** Owning project slug; `""` for a global note (recalled in every project). */
  readonly owner: string;
  /** Memory type or record kind (`convention`, `fix`, …), or `episode`. */
  readonly kind: string;
  /** `active`, `pruned`, `superseded`, `inbox`, … Only recallable statuses are ever returned. */
  readonly status: string;
  readonly tags: readonly string[];
  /** Always included in phase recall, whatever the query. */
  readonly alwaysLoad: boolean;
  /** Epoch ms: when the memory was made (an episode's timestamp). */
  readonly createdMs: number;
  /** Epoch ms: when it last changed; the recency clock. */
  readonly updatedMs: number;
  readonly title: string;
  /**
   * Whether the title was made up (the text's first line, the file name) rather than written as one (a
   * heading, a `title:`): shown all the same, but not ranked as a title.
   */
  readonly untitled?: boolean | undefined;
  /** Searchable body text (Markdown, frontmatter removed). */
  readonly text: string;
  /** sha256 of the normalized text (DESIGN §12); keys the vector cache. */
  readonly fingerprint: string;
  /** Provenance: ids of the documents this one was distilled from (beliefs). */
  readonly derivedFrom: readonly string[];
  /** Belief confidence in [0, 1], when the note is a belief. */
  readonly confidence?: number | undefined;
  /**
   * The note this one supersedes (agentm's `supersedes:`, a vault-relative path), if any: that note
   * is never recalled while this one is indexed.
   */
  readonly supersedes?: string | undefined;
}

/**
 * Maps one source file to the documents it holds (usually one, none for a file that is not a memory).
 * Pluggable: the notes module's parser is plugged in here; the engine does not know the note format.
 * `info` carries the file's mtime for mappers that have no date of their own. Throwing marks the file
 * unreadable (it is skipped and reported, the rest of the index is built).
 */
export type ToDocument = (
  locator: Locator,
  text: string,
  info: Info,
) => IndexDocument | readonly IndexDocument[] | undefined;

/** Statuses recall never returns (DESIGN §8: pruned and superseded notes are never recalled). */
export const NON_RECALLABLE_STATUSES: ReadonlySet<string> = new Set([
  'pruned',
  'superseded',
  'archived',
  'inbox',
  'deleted',
]);

/** Whether recall may return a document of this status. */
export function isRecallable(doc: Pick<IndexDocument, 'status'>): boolean {
  return doc.status === 'active' || !NON_RECALLABLE_STATUSES.has(doc.status.trim().toLowerCase());
}

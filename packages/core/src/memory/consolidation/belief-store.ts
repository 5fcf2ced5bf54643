/**
 * Beliefs are memory notes made by consolidation (DESIGN §8, §12: `confidence`, `reinforce_count`,
 * `last_reinforced` after `derived_from`; `status: active | pruned`). The engine reads and writes
 * them only through `BeliefStore`, so the note format stays the notes module's business.
 */
export interface Belief {
  /** Store key (the note's locator key). */
  readonly id: string;
  /** Project slug. */
  readonly owner: string;
  /** Memory type of the note (`reference`, `preference`, `convention`, …). */
  readonly kind: string;
  /** The belief: one self-contained statement (the note's body). */
  readonly statement: string;
  readonly confidence: number;
  readonly reinforceCount: number;
  readonly lastReinforcedMs: number;
  /**
   * Decay windows already applied since `lastReinforcedMs` (0 when absent). Needed so that decay
   * is idempotent: a second run in the same window must not decay again (frontmatter
   * `decay_windows`, after `last_reinforced`).
   */
  readonly decayWindows: number;
  readonly status: 'active' | 'pruned';
  /** Provenance: episode ids (and other document ids) the belief was distilled from. */
  readonly derivedFrom: readonly string[];
}

/** A belief to create. The store picks the id (slug) and writes the note. */
export interface BeliefDraft {
  readonly owner: string;
  readonly kind: string;
  readonly statement: string;
  readonly confidence: number;
  /** 1, or more when later clusters of the same run reinforced it before it was written. */
  readonly reinforceCount: number;
  readonly derivedFrom: readonly string[];
  readonly createdMs: number;
}

/** Fields an update changes; the rest of the note is kept. */
export interface BeliefChange {
  readonly confidence?: number;
  readonly reinforceCount?: number;
  readonly lastReinforcedMs?: number;
  readonly decayWindows?: number;
  readonly status?: 'active' | 'pruned';
  readonly derivedFrom?: readonly string[];
}

export interface BeliefStore {
  /** The project's active beliefs. */
  listActiveBeliefs(project: string): Promise<Belief[]>;
  /** Writes a new belief note (never overwriting one); returns it with its id. */
  createBelief(draft: BeliefDraft): Promise<Belief>;
  /**
   * Applies `change` to the belief `previous` describes, refusing (ConcurrentModificationError) if the
   * note changed since it was listed — the compare-and-swap that keeps two devices from double
   * counting. Returns the updated belief.
   */
  updateBelief(previous: Belief, change: BeliefChange): Promise<Belief>;
}

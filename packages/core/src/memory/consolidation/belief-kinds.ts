import { NoteValidationError } from '../notes/errors.js';
import { DEFAULT_VOCABULARY, resolveKind, type Vocabulary } from '../notes/vocabulary.js';

/**
 * memQL's belief flavours (`semanticMemory.kind`: fact, preference, outcome) in agentm's vocabulary,
 * explicitly: a fact is a `reference`, a preference a `preference`, and a learned outcome (what worked,
 * what broke and how it was resolved) a `fix`. agentm's own memory types pass through unchanged.
 */
export const MEMQL_BELIEF_KINDS: Readonly<Record<string, string>> = Object.freeze({
  fact: 'reference',
  preference: 'preference',
  outcome: 'fix',
});

/**
 * The memory type a belief is filed under: memQL's flavours mapped (`MEMQL_BELIEF_KINDS`), retired
 * names replaced, and the result checked against the vocabulary. A belief is a memory note, so it must
 * be a memory type (written `type:`), never a record kind: anything else throws `NoteValidationError`
 * (argument `kind`) listing the valid types.
 */
export function beliefNoteType(kind: string, vocabulary: Vocabulary = DEFAULT_VOCABULARY): string {
  const mapped = MEMQL_BELIEF_KINDS[kind.trim().toLowerCase()] ?? kind.trim().toLowerCase();
  const resolved = resolveKind(mapped, vocabulary);
  if (resolved.field !== 'type') {
    throw new NoteValidationError(
      'kind',
      `a belief cannot be filed as record kind ${JSON.stringify(resolved.value)}: beliefs are memory notes, so their kind must be a memory type (${vocabulary.types.join(', ')}) or one of memQL's fact, preference, outcome`,
    );
  }
  return resolved.value;
}

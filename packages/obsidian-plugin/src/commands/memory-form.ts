import {
  assertGroup,
  assertKindName,
  assertSlug,
  assertTags,
  DEFAULT_VOCABULARY,
  NoteValidationError,
  resolveKind,
  type Vocabulary,
} from '@agentm/core/memory';
import type { SaveNoteRequest } from '../services.js';

/** What the save modal's fields hold, as typed. */
export interface MemoryFormInput {
  readonly kind: string;
  readonly slug: string;
  /** Comma- or space-separated. */
  readonly tags: string;
  /** Optional; empty = the memory space. */
  readonly group: string;
  readonly body: string;
}

export type MemoryField = 'kind' | 'slug' | 'tags' | 'group' | 'body';

export interface FieldError {
  readonly field: MemoryField;
  readonly message: string;
}

export type MemoryFormResult =
  | { readonly ok: true; readonly request: SaveNoteRequest }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/** Runs one of core's checks; its `NoteValidationError` becomes the field's error (with core's message). */
function check(errors: FieldError[], field: MemoryField, fn: () => void): void {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof NoteValidationError)) throw error;
    errors.push({ field, message: error.message });
  }
}

/**
 * Validates the save modal with core's own checks and messages (the ones `agentm save` gives): the kind's
 * pattern and the vocabulary, the slug, each tag and the group. Every problem is reported (not just the
 * first), each under its field. Pure: nothing is written before this passes.
 */
export function validateMemoryForm(
  input: MemoryFormInput,
  vocabulary: Vocabulary = DEFAULT_VOCABULARY,
): MemoryFormResult {
  const errors: FieldError[] = [];
  const kind = input.kind.trim();
  const slug = input.slug.trim();
  const group = input.group.trim();
  const tags = input.tags.split(/[\s,]+/).filter((t) => t !== '');

  check(errors, 'kind', () => {
    assertKindName(kind);
    resolveKind(kind, vocabulary);
  });
  check(errors, 'slug', () => assertSlug(slug));
  for (const tag of tags) check(errors, 'tags', () => assertTags([tag]));
  if (group !== '') check(errors, 'group', () => assertGroup(group));
  if (input.body.trim() === '')
    errors.push({ field: 'body', message: 'Body is empty: select the text to save first.' });

  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, request: { kind, slug, tags, body: input.body, ...(group !== '' ? { group } : {}) } };
}

/** A slug suggestion from the first words of the text (may still need editing). */
export function suggestSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .split('-')
    .slice(0, 6)
    .join('-');
}

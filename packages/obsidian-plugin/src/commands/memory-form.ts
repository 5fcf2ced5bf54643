import type { SaveNoteRequest } from '../services.js';

/** What the save modal's fields hold, as typed. */
export interface MemoryFormInput {
  readonly kind: string;
  readonly slug: string;
  /** Comma- or space-separated. */
  readonly tags: string;
  /** Optional. */
  readonly group: string;
  readonly body: string;
}

export type MemoryField = 'kind' | 'slug' | 'tags' | 'group' | 'body';

export interface FieldError {
  readonly field: MemoryField;
  readonly message: string;
}

export type MemoryFormResult = { readonly ok: true; readonly request: SaveNoteRequest } | { readonly ok: false; readonly errors: readonly FieldError[] };

/** agentm's patterns (DESIGN §12): kind, slug and each tag; a group is slash-separated segments. */
export const NAME_PATTERN = /^[a-z0-9-]+$/;
export const GROUP_PATTERN = /^[a-z0-9-]+(\/[a-z0-9-]+)*$/;

const RULE = 'use only lowercase letters, digits and hyphens';

/**
 * Validates the save modal. Every problem is reported (not just the first), each naming its field, the
 * value and the fix. Pure.
 */
export function validateMemoryForm(input: MemoryFormInput): MemoryFormResult {
  const errors: FieldError[] = [];
  const kind = input.kind.trim();
  const slug = input.slug.trim();
  const group = input.group.trim();
  const tags = input.tags.split(/[\s,]+/).filter((t) => t !== '');

  if (kind === '') errors.push({ field: 'kind', message: 'Kind is required (e.g. "convention").' });
  else if (!NAME_PATTERN.test(kind)) errors.push({ field: 'kind', message: `Kind "${kind}" is not valid: ${RULE} (e.g. "convention").` });
  if (slug === '') errors.push({ field: 'slug', message: 'Slug is required (e.g. "pick-stdlib").' });
  else if (!NAME_PATTERN.test(slug)) errors.push({ field: 'slug', message: `Slug "${slug}" is not valid: ${RULE} (e.g. "pick-stdlib").` });
  for (const tag of tags) {
    if (!NAME_PATTERN.test(tag)) errors.push({ field: 'tags', message: `Tag "${tag}" is not valid: ${RULE}.` });
  }
  if (group !== '' && !GROUP_PATTERN.test(group)) {
    errors.push({ field: 'group', message: `Group "${group}" is not valid: ${RULE}, in segments separated by "/" (e.g. "desk/projects/agentm").` });
  }
  if (input.body.trim() === '') errors.push({ field: 'body', message: 'Body is empty: select the text to save first.' });

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

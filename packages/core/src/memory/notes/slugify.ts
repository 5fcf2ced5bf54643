/** Longest slug `slugify` makes: a readable file name, far below NAME_MAX. */
const SLUG_MAX = 80;

/**
 * A slug `save` accepts (`^[a-z0-9-]+$`) made from free text: accents dropped, lower-cased, every run
 * of other characters one `-`, no `-` at either end, at most 80 characters. `""` when nothing is left
 * (the caller then has no slug to propose). Pure; a valid slug is returned unchanged.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '');
}

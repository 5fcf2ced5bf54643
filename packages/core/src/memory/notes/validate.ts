import { NoteValidationError } from './errors.js';

/** Kinds, slugs and tags: lower-case letters, digits and hyphens. */
export const NAME_PATTERN = /^[a-z0-9-]+$/;
/** Groups: one or more such names joined by `/`. */
export const GROUP_PATTERN = new RegExp('^[a-z0-9-]+(/[a-z0-9-]+)*$');
export const LIFECYCLE_TIERS = ['durable', 'volatile'] as const;

/** Throws `NoteValidationError` naming the argument and the pattern unless `value` matches. */
export function assertPattern(argument: string, value: unknown, pattern: RegExp, example: string): void {
  if (typeof value !== 'string' || !pattern.test(value)) {
    throw new NoteValidationError(
      argument,
      `invalid ${argument} ${JSON.stringify(value)}: it must match ${pattern.source.replace(/\\\//g, '/')} (lower-case letters, digits and hyphens${
        pattern === GROUP_PATTERN ? ', segments joined by /' : ''
      }), e.g. ${example}`,
    );
  }
}

export function assertKindName(kind: unknown): void {
  assertPattern('kind', kind, NAME_PATTERN, 'convention');
}
export function assertSlug(slug: unknown): void {
  assertPattern('slug', slug, NAME_PATTERN, 'pick-stdlib');
}
export function assertGroup(group: unknown): void {
  assertPattern('group', group, GROUP_PATTERN, 'desk/projects/agentm');
}
export function assertTags(tags: readonly unknown[]): void {
  for (const tag of tags) assertPattern('tag', tag, NAME_PATTERN, 'build-tools');
}
export function assertLifecycleTier(tier: unknown): void {
  if (tier !== undefined && !(LIFECYCLE_TIERS as readonly unknown[]).includes(tier)) {
    throw new NoteValidationError(
      'lifecycle_tier',
      `invalid lifecycle_tier ${JSON.stringify(tier)}: it must be durable or volatile`,
    );
  }
}

import type { StorageBackend } from '../../seam/backend.js';
import { Locator } from '../../seam/locator.js';
import { ConcurrentModificationError } from '../../write-protocol/errors.js';
import { scrubIncident } from '../../text/redact.js';
import { NoteExistsError, NoteValidationError } from './errors.js';
import { noteFingerprint } from './fingerprint.js';
import { localDate, serializeNote, type NoteFields } from './format.js';
import { assertGroup, assertKindName, assertLifecycleTier, assertSlug, assertTags } from './validate.js';
import { DEFAULT_VOCABULARY, resolveKind, type Vocabulary } from './vocabulary.js';

/** What `agentm save` takes. */
export interface SaveNoteInput {
  readonly kind: string;
  readonly slug: string;
  readonly body: string;
  /** Default: the memory space (`memory`). */
  readonly group?: string;
  readonly tags?: readonly string[];
  readonly alwaysLoad?: boolean;
  /** The note this one supersedes (a store-relative path). */
  readonly supersedes?: string;
  /** Default: computed from the body. */
  readonly fingerprint?: string;
  readonly lifecycleTier?: 'durable' | 'volatile';
  readonly sourceUrl?: string;
  readonly sourceFetched?: string;
  readonly derivedFrom?: readonly string[];
  /** Belief fields (consolidation). */
  readonly confidence?: number;
  readonly reinforceCount?: number;
  readonly lastReinforced?: string;
  readonly decayWindows?: number;
}

export interface NoteOptions {
  /** The date written into `created`/`updated` (default: now, local). */
  readonly now?: Date;
  readonly vocabulary?: Vocabulary;
  /** The memory space, relative to the store root (default `memory`). */
  readonly memorySpace?: string;
}

/** A note ready to write: where, what, and the fields it carries. */
export interface BuiltNote {
  readonly locator: Locator;
  readonly content: string;
  readonly fields: NoteFields;
}

/** The kind whose bodies are scrubbed of personal data and keys before they are written (as agentm does). */
export const SCRUBBED_KIND = 'failure-incident';

/**
 * A `failure-incident` body with e-mail addresses, home paths, API keys and US phone numbers replaced by
 * `[REDACTED-<KIND>]`; any other body as it is. A body that cannot be scrubbed is refused
 * (`NoteValidationError`), so nothing is written: an incident report is exactly where a pasted stack
 * trace or environment dump carries a user's name and keys into the synced vault.
 */
function scrubbedBody(kind: string, body: string): string {
  if (kind !== SCRUBBED_KIND) return body;
  const result = scrubIncident(body);
  if (result.text === undefined)
    throw new NoteValidationError(
      'body',
      `a ${SCRUBBED_KIND} body cannot be scrubbed of personal data (${result.refused}); nothing was written. Remove the odd characters and save again`,
    );
  return result.text;
}

/**
 * Validates and formats a note (pure): kind, vocabulary, slug, group, tags, lifecycle tier, in
 * agentm's order; a `failure-incident` body is scrubbed first and fingerprinted after. The target is
 * `<memory>/_always-load/<slug>.md` for always-load notes, else `<group>/<type-or-kind>/<slug>.md`.
 */
export function buildNote(input: SaveNoteInput, options: NoteOptions = {}): BuiltNote {
  const memorySpace = options.memorySpace ?? 'memory';
  assertKindName(input.kind);
  const resolved = resolveKind(input.kind, options.vocabulary ?? DEFAULT_VOCABULARY);
  assertSlug(input.slug);
  const group = input.group ?? memorySpace;
  assertGroup(group);
  const tags = [...(input.tags ?? [])];
  assertTags(tags);
  assertLifecycleTier(input.lifecycleTier);
  const body = scrubbedBody(resolved.value, input.body);
  const date = localDate(options.now ?? new Date());
  const alwaysLoad = input.alwaysLoad === true;
  const fields: NoteFields = {
    [resolved.field]: resolved.value,
    status: 'active',
    altitude: 'artifact',
    created: date,
    updated: date,
    tags,
    group,
    slug: input.slug,
    source_url: input.sourceUrl,
    source_fetched: input.sourceFetched,
    fingerprint: input.fingerprint ?? noteFingerprint(body),
    always_load: alwaysLoad,
    supersedes: input.supersedes,
    lifecycle_tier: input.lifecycleTier,
    derived_from: input.derivedFrom,
    confidence: input.confidence,
    reinforce_count: input.reinforceCount,
    last_reinforced: input.lastReinforced,
    decay_windows: input.decayWindows,
  };
  const locator = alwaysLoad
    ? new Locator(`${memorySpace}/_always-load/${input.slug}.md`)
    : new Locator(`${group}/${resolved.value}/${input.slug}.md`);
  return { locator, content: serializeNote(fields, body), fields };
}

/**
 * Saves a new note through the backend and returns it. Never overwrites: the write expects the target
 * to be absent (CAS), so of two savers of one slug exactly one wins and the other gets
 * `NoteExistsError` (which says how to supersede instead).
 */
export async function saveNote(
  backend: StorageBackend,
  input: SaveNoteInput,
  options: NoteOptions = {},
): Promise<BuiltNote> {
  const note = buildNote(input, options);
  const locator = backend.resolve(note.locator.key);
  if (await backend.exists(locator)) throw new NoteExistsError(locator.key);
  try {
    await backend.write(locator, note.content, { expectHash: null });
  } catch (error) {
    if (error instanceof ConcurrentModificationError) throw new NoteExistsError(locator.key);
    throw error;
  }
  return { ...note, locator };
}

import type { StorageBackend } from '../../seam/backend.js';
import { NotFoundError } from '../../seam/errors.js';
import type { Locator } from '../../seam/locator.js';
import { contentHash } from '../../write-protocol/content-hash.js';
import type { ConfigData } from '../../config/config-file.js';
import { probeProjectLocator } from '../../routing/resolve-project.js';
import { parseTimestamp } from '../documents/timestamps.js';
import { isIndexableName } from '../indexing/walk.js';
import { NoteValidationError } from '../notes/errors.js';
import { noteFingerprint } from '../notes/fingerprint.js';
import { localDate, serializeNote, type NoteFields } from '../notes/format.js';
import { parseNote, type ParsedNote } from '../notes/parse.js';
import { patchNoteFields } from '../notes/patch.js';
import { DEFAULT_VOCABULARY, type Vocabulary } from '../notes/vocabulary.js';
import { beliefNoteType } from './belief-kinds.js';
import type { Belief, BeliefChange, BeliefDraft, BeliefStore } from './belief-store.js';

/** The tag every belief note carries. */
export const BELIEF_TAG = 'belief';
const SLUG_WORDS = 6;
const MAX_SLUG_SUFFIX = 99;

export interface NoteBeliefStoreOptions {
  /** The project's folder in the store (default: the projects-space probe, `probeProjectLocator`). */
  readonly projectFolder?: (project: string) => Promise<Locator>;
  /** Config for the probe (the configured projects space) — ignored when `projectFolder` is given. */
  readonly config?: ConfigData;
  readonly vocabulary?: Vocabulary;
  /** The clock for `updated` (default: now). */
  readonly now?: () => Date;
}

/** The slug of a new belief: its first words and a short hash of the statement (`vault-lock-times-out-3f2a1b`). */
export function beliefSlug(statement: string): string {
  const words =
    statement
      .toLowerCase()
      .match(/[a-z0-9]+/g)
      ?.slice(0, SLUG_WORDS)
      .join('-') || 'belief';
  return `${words}-${contentHash(statement).slice(0, 6)}`;
}

/** The frontmatter and body of a new belief note, in agentm's key order (DESIGN §12) plus the belief fields. */
export function beliefNoteFields(
  draft: BeliefDraft,
  options: { type: string; group: string; slug: string },
): NoteFields {
  const day = localDate(new Date(draft.createdMs));
  return {
    type: options.type,
    status: 'active',
    altitude: 'artifact',
    created: day,
    updated: day,
    tags: [BELIEF_TAG],
    group: options.group,
    slug: options.slug,
    fingerprint: noteFingerprint(draft.statement),
    always_load: false,
    derived_from: draft.derivedFrom,
    confidence: draft.confidence,
    reinforce_count: draft.reinforceCount,
    last_reinforced: new Date(draft.createdMs).toISOString(),
    decay_windows: 0,
  };
}

/** A belief read from a note, or undefined when the note is not one (no `confidence` and `reinforce_count`). */
export function beliefFromNote(locator: Locator, note: ParsedNote, owner: string): Belief | undefined {
  if (note.confidence === undefined || note.reinforceCount === undefined) return undefined;
  const time = (value: string | undefined) => (value ? parseTimestamp(value) : undefined);
  return {
    id: locator.key,
    owner,
    kind: note.kind ?? locator.parent.name,
    statement: note.body.trim(),
    confidence: note.confidence,
    reinforceCount: note.reinforceCount,
    lastReinforcedMs: time(note.lastReinforced) ?? time(note.updated) ?? 0,
    decayWindows: note.decayWindows !== undefined && note.decayWindows >= 0 ? Math.floor(note.decayWindows) : 0,
    status: note.status === 'pruned' ? 'pruned' : 'active',
    derivedFrom: note.derivedFrom,
  };
}

/** The frontmatter changes a `BeliefChange` makes (and `updated`, the day of the change). */
function changedFields(change: BeliefChange, today: string): NoteFields {
  const fields: NoteFields = { updated: today };
  if (change.status !== undefined) fields.status = change.status;
  if (change.derivedFrom !== undefined) fields.derived_from = change.derivedFrom;
  if (change.confidence !== undefined) fields.confidence = change.confidence;
  if (change.reinforceCount !== undefined) fields.reinforce_count = change.reinforceCount;
  if (change.lastReinforcedMs !== undefined) fields.last_reinforced = new Date(change.lastReinforcedMs).toISOString();
  if (change.decayWindows !== undefined) fields.decay_windows = change.decayWindows;
  return fields;
}

/** Refuses text whose provenance would not read back as written (a guard: the YAML emitter quotes what needs it). */
function assertReadsBack(text: string, derivedFrom: readonly string[] | undefined, where: string): void {
  if (derivedFrom === undefined) return;
  const back = parseNote(text).derivedFrom;
  if (back.length !== derivedFrom.length || back.some((id, i) => id !== derivedFrom[i])) {
    throw new NoteValidationError(
      'derived_from',
      `the provenance of the belief at ${where} would not read back as written; nothing was written`,
    );
  }
}

/**
 * The `BeliefStore` over the notes module: beliefs are memory notes in the project's folder of the
 * projects space (`<space>/<project>/<type>/<slug>.md`, the folder found by the same probe routing
 * uses), written with the notes serializer in agentm's key order plus the belief fields
 * (`confidence, reinforce_count, last_reinforced, decay_windows` after `derived_from`), through the
 * backend: a create expects the note absent, an update is a compare-and-swap against the text the
 * belief was listed from.
 */
export class NoteBeliefStore implements BeliefStore {
  readonly #hashes = new Map<string, string>();
  readonly #folders = new Map<string, Locator>();

  constructor(
    readonly backend: StorageBackend,
    private readonly options: NoteBeliefStoreOptions = {},
  ) {}

  /** The project's folder (probed once per store). */
  async projectFolder(project: string): Promise<Locator> {
    let folder = this.#folders.get(project);
    if (!folder) {
      folder = this.options.projectFolder
        ? await this.options.projectFolder(project)
        : (await probeProjectLocator(this.backend, project, this.options.config ?? {})).locator;
      this.#folders.set(project, folder);
    }
    return folder;
  }

  /** The project's beliefs in `status: active`, from every type folder of the project (not `_harness/`, `_`- or dot-folders). */
  async listActiveBeliefs(project: string): Promise<Belief[]> {
    const out: Belief[] = [];
    for (const dir of await this.#list(await this.projectFolder(project))) {
      if (dir.name.startsWith('_') || dir.name.startsWith('.') || dir.name.endsWith('.md')) continue;
      const files = await this.#list(dir);
      const names = new Set(files.map((f) => f.name));
      for (const file of files) {
        if (!file.name.endsWith('.md') || !isIndexableName(file.name, names)) continue;
        const text = await this.backend.read(file).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        });
        if (text === undefined) continue;
        const belief = beliefFromNote(file, parseNote(text), project);
        if (belief?.status !== 'active') continue;
        this.#hashes.set(file.key, contentHash(text));
        out.push(belief);
      }
    }
    return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Writes a new belief note (expecting it absent; a slug taken by another note gets `-2`, `-3`, …). */
  async createBelief(draft: BeliefDraft): Promise<Belief> {
    const type = beliefNoteType(draft.kind, this.options.vocabulary ?? DEFAULT_VOCABULARY);
    const folder = await this.projectFolder(draft.owner);
    const base = beliefSlug(draft.statement);
    for (let n = 1; n <= MAX_SLUG_SUFFIX; n++) {
      const slug = n === 1 ? base : `${base}-${n}`;
      const locator = folder.child(type, `${slug}.md`);
      if (await this.backend.exists(locator)) continue;
      const text = serializeNote(beliefNoteFields(draft, { type, group: folder.key, slug }), draft.statement);
      assertReadsBack(text, draft.derivedFrom, locator.key);
      // A note that appeared meanwhile (another device consolidating the same episodes) fails the
      // write with ConcurrentModificationError: the run stops, and a re-run skips those episodes by provenance.
      await this.backend.write(locator, text, { expectHash: null });
      this.#hashes.set(locator.key, contentHash(text));
      return {
        id: locator.key,
        owner: draft.owner,
        kind: type,
        statement: draft.statement.trim(),
        confidence: draft.confidence,
        reinforceCount: draft.reinforceCount,
        lastReinforcedMs: draft.createdMs,
        decayWindows: 0,
        status: 'active',
        derivedFrom: draft.derivedFrom,
      };
    }
    throw new NoteValidationError(
      'slug',
      `no free slug for a new belief under ${folder.key}/${type}/ (${base} … -${MAX_SLUG_SUFFIX} are taken)`,
    );
  }

  /** Changes a belief's fields, keeping the rest of the note byte for byte; CAS against the listed text. */
  async updateBelief(previous: Belief, change: BeliefChange): Promise<Belief> {
    const locator = this.backend.resolve(previous.id);
    const current = await this.backend.read(locator);
    const expectHash = this.#hashes.get(previous.id) ?? contentHash(current);
    const text = patchNoteFields(current, changedFields(change, localDate(this.options.now?.() ?? new Date())));
    assertReadsBack(text, change.derivedFrom, locator.key);
    await this.backend.write(locator, text, { expectHash });
    this.#hashes.set(previous.id, contentHash(text));
    return { ...previous, ...change };
  }

  async #list(dir: Locator): Promise<Locator[]> {
    try {
      return await this.backend.list(dir);
    } catch (error) {
      if (error instanceof NotFoundError) return [];
      throw error;
    }
  }
}

/** A `NoteBeliefStore` (the store `agentm consolidate` uses). */
export function noteBeliefStore(backend: StorageBackend, options: NoteBeliefStoreOptions = {}): NoteBeliefStore {
  return new NoteBeliefStore(backend, options);
}

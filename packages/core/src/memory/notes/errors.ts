import { AgentMError, EXIT_USAGE } from '../../seam/errors.js';

/** The family of memory-note problems. */
export class NoteError extends AgentMError {
  override readonly exitCode: number = EXIT_USAGE;
}

/** A save/evolve argument that does not match what it must. Names the argument and the expected pattern. */
export class NoteValidationError extends NoteError {
  readonly argument: string;
  constructor(argument: string, message: string) {
    super(message, { code: 'ENOTEVALIDATION' });
    this.argument = argument;
  }
}

/** A kind in neither register of the vocabulary. */
export class UnknownKindError extends NoteValidationError {
  readonly kind: string;
  constructor(kind: string, types: readonly string[], recordKinds: readonly string[]) {
    super(
      'kind',
      `kind ${JSON.stringify(kind)} is in neither register of the filing vocabulary. Valid memory types: ${types.join(', ')}` +
        `${recordKinds.length ? `; record kinds: ${recordKinds.join(', ')}` : ''}.`,
    );
    this.kind = kind;
  }
}

/** Save onto an existing note. Save never overwrites. */
export class NoteExistsError extends NoteError {
  readonly locator: string;
  constructor(locator: string) {
    super(
      `entry already exists at ${locator}: agentm save never overwrites a note. Use evolve to supersede it ` +
        '(the old note is archived under memory/_archive/ and the new one records what it supersedes), or pick a different slug.',
      { code: 'ENOTEEXISTS' },
    );
    this.locator = locator;
  }
}

/** Evolve of a note that cannot be superseded as asked (not active, no reason, renaming an always-load note). */
export class NoteEvolveError extends NoteError {
  constructor(message: string) {
    super(message, { code: 'ENOTEEVOLVE' });
  }
}

/**
 * The filing rules (a `storage-rules.md` that exists) cannot be used: unreadable, no fenced block,
 * not valid YAML, or a malformed register. Filing halts rather than falling back to the shipped
 * default, as agentm's does: a rules file that is there but broken must be fixed, not ignored.
 */
export class StorageRulesError extends NoteError {
  /** The rules file that was refused. */
  readonly source: string;
  constructor(source: string, problem: string, cause?: unknown) {
    super(
      `${source}: ${problem}. Filing is refused until the rules parse: fix the \`\`\`storage-rules block of that file, ` +
        'or remove the file (or unset AGENTM_STORAGE_RULES when it names it) to file by the shipped default.',
      { code: 'ESTORAGERULES', cause },
    );
    this.source = source;
  }
}

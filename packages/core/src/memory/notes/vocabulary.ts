import { UnknownKindError } from './errors.js';

/** The filing vocabulary: memory types (written `type:`), record kinds (written `kind:`) and retired names. */
export interface Vocabulary {
  readonly types: readonly string[];
  readonly recordKinds: readonly string[];
  /** Retired name → its replacement (which also decides the folder). */
  readonly retired: Readonly<Record<string, string>>;
}

/** agentm's default register. */
export const DEFAULT_VOCABULARY: Vocabulary = Object.freeze({
  types: ['preference', 'convention', 'reference', 'workflow', 'fix', 'idea'],
  recordKinds: ['brief', 'telemetry', 'capture', 'failure-incident', 'design', 'project', 'moc'],
  retired: {
    decision: 'convention',
    'domain-reference': 'reference',
    preferences: 'preference',
    runbook: 'workflow',
    howto: 'workflow',
    pattern: 'workflow',
    'workflow-pattern': 'workflow',
    insight: 'idea',
    gap: 'idea',
  },
});

/** How a kind is filed: the frontmatter field, the value (also the folder), and the retired name it replaced. */
export interface ResolvedKind {
  readonly field: 'type' | 'kind';
  readonly value: string;
  readonly retiredFrom: string | undefined;
}

/** Resolves a kind through the vocabulary: retired names are replaced; a name in neither register throws `UnknownKindError`. */
export function resolveKind(kind: string, vocabulary: Vocabulary = DEFAULT_VOCABULARY): ResolvedKind {
  const replacement = vocabulary.retired[kind];
  const value = replacement ?? kind;
  if (vocabulary.types.includes(value)) return { field: 'type', value, retiredFrom: replacement ? kind : undefined };
  if (vocabulary.recordKinds.includes(value))
    return { field: 'kind', value, retiredFrom: replacement ? kind : undefined };
  throw new UnknownKindError(kind, vocabulary.types, vocabulary.recordKinds);
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? (value as string[]) : undefined;
}

/**
 * The vocabulary from config key `memory.vocabulary` (`{"types": [...], "record_kinds": [...],
 * "retired": {...}}`; each part optional, replacing the default's), or the default register.
 */
export function vocabularyFromConfig(config: Readonly<Record<string, unknown>>): Vocabulary {
  const raw = config['memory.vocabulary'];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return DEFAULT_VOCABULARY;
  const data = raw as Record<string, unknown>;
  const retired = data['retired'];
  return {
    types: stringList(data['types']) ?? DEFAULT_VOCABULARY.types,
    recordKinds: stringList(data['record_kinds']) ?? DEFAULT_VOCABULARY.recordKinds,
    retired:
      typeof retired === 'object' &&
      retired !== null &&
      !Array.isArray(retired) &&
      Object.values(retired).every((v) => typeof v === 'string')
        ? (retired as Record<string, string>)
        : DEFAULT_VOCABULARY.retired,
  };
}

import { UnknownKindError } from './errors.js';

/** The filing vocabulary: memory types (written `type:`), record kinds (written `kind:`) and retired names. */
export interface Vocabulary {
  readonly types: readonly string[];
  readonly recordKinds: readonly string[];
  /** Retired name → its replacement (which also decides the folder). */
  readonly retired: Readonly<Record<string, string>>;
  /** What an unlabelled capture lands as (agentm's `default_type`), when the rules name one. */
  readonly defaultType?: string;
}

/**
 * The shipped register: the block of agentm's `storage-rules.default.md` (6 memory types, 32 record
 * kinds, 21 retired names), as data so the editors' bundles need no file beside them. A vault's own
 * `standards/storage-rules.md` replaces it (`resolveVocabulary`).
 */
export const DEFAULT_VOCABULARY: Vocabulary = Object.freeze({
  types: Object.freeze(['preference', 'convention', 'reference', 'workflow', 'fix', 'idea']),
  recordKinds: Object.freeze([
    'brief',
    'telemetry',
    'session-cost',
    'session-brief',
    'session-findings',
    'session-handoff',
    'conversation',
    'capture',
    'failure-incident',
    'crystallized',
    'opinion-supplement',
    'handoff-artifact',
    'handoff-index',
    'design',
    'project',
    'project-index',
    'project-summary',
    'arc-index',
    'dir-index',
    'pilot-index',
    'research-index',
    'persona',
    'moc',
    'roadmap-integration',
    'skill-watchlist',
    'skill-watchlist-entry',
    'content-refresh-watchlist',
    'debt',
    'idea-incubator',
    'idea-incubator-summary',
    'idea-incubator-research',
    'idea-incubator-runbook',
  ]),
  retired: Object.freeze({
    preferences: 'preference',
    feedback: 'preference',
    conventions: 'convention',
    'non-negotiable': 'convention',
    'design-call': 'convention',
    decision: 'convention',
    'decision-summary': 'convention',
    'domain-reference': 'reference',
    research: 'reference',
    'research-synthesis': 'reference',
    snippet: 'reference',
    skill: 'reference',
    evidence: 'reference',
    archive: 'reference',
    'voice-profile': 'reference',
    'workflow-pattern': 'workflow',
    pattern: 'workflow',
    runbook: 'workflow',
    howto: 'workflow',
    insight: 'idea',
    gap: 'idea',
  }),
  defaultType: 'preference',
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
 * `vocabulary` with config key `memory.vocabulary` applied (`{"types": [...], "record_kinds": [...],
 * "retired": {...}}`; each part optional, replacing that part). Without the key, `vocabulary` itself.
 */
export function applyVocabularyConfig(vocabulary: Vocabulary, config: Readonly<Record<string, unknown>>): Vocabulary {
  const raw = config['memory.vocabulary'];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return vocabulary;
  const data = raw as Record<string, unknown>;
  const retired = data['retired'];
  return {
    ...vocabulary,
    types: stringList(data['types']) ?? vocabulary.types,
    recordKinds: stringList(data['record_kinds']) ?? vocabulary.recordKinds,
    retired:
      typeof retired === 'object' &&
      retired !== null &&
      !Array.isArray(retired) &&
      Object.values(retired).every((v) => typeof v === 'string')
        ? (retired as Record<string, string>)
        : vocabulary.retired,
  };
}

/**
 * The shipped register with config `memory.vocabulary` applied, without reading any rules file. Front
 * ends call `resolveVocabulary`, which also honours `$AGENTM_STORAGE_RULES` and the vault's rules.
 */
export function vocabularyFromConfig(config: Readonly<Record<string, unknown>>): Vocabulary {
  return applyVocabularyConfig(DEFAULT_VOCABULARY, config);
}

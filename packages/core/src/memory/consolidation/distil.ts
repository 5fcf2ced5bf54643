import { ProviderError, ProviderMalformedError } from '../../providers/errors.js';
import type { ChatMessage, ChatProvider } from '../../providers/chat.js';
import { chatJson } from '../../providers/chat-json.js';
import { MEMQL_BELIEF_KINDS } from './belief-kinds.js';
import { medoid } from './cluster.js';
import type { ConsolidationConfig } from './decisions.js';

/** An episode as consolidation sees it. */
export interface EpisodeLike {
  readonly id: string;
  readonly text: string;
  readonly timeMs: number;
}

/** What a distiller makes of a cluster: one belief, or null for "nothing stable here". */
export interface Distilled {
  readonly statement: string;
  readonly kind: string;
  readonly confidence: number;
}

/** The memory types a belief may take (agentm's default register). */
export const BELIEF_KINDS = ['preference', 'convention', 'reference', 'workflow', 'fix', 'idea'] as const;
const STATEMENT_MAX = 280;

/**
 * The extractive distiller (no model): a cluster of fewer than `minClusterSize` episodes is nothing
 * stable; otherwise the belief is the cluster's medoid episode (the one most like the others), its
 * first sentence or line, cut to 280 characters, with the default kind and confidence.
 */
export function distilExtractive(
  cluster: readonly EpisodeLike[],
  similarity: (a: string, b: string) => number,
  config: ConsolidationConfig,
): Distilled | null {
  if (cluster.length < Math.max(1, config.minClusterSize)) return null;
  const center = medoid(cluster, (a, b) => similarity(a.text, b.text));
  const statement = firstSentence(center.text);
  return statement === '' ? null : { statement, kind: config.defaultKind, confidence: config.defaultConfidence };
}

function firstSentence(text: string): string {
  const flat = text
    .replace(/^\s*(?:#{1,6}\s+)?/, '')
    .replace(
      /^[\s[(*_`]*\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:\s?(?:Z|UTC|GMT|[+-]\d{2}:?\d{2}))?)?[\])*_`]*[\s:—–-]*/,
      '',
    )
    .split('\n')[0]!
    .replace(/\s+/g, ' ')
    .trim();
  const sentence = /^(.+?[.!?])(?:\s|$)/.exec(flat)?.[1] ?? flat;
  if (sentence.length <= STATEMENT_MAX) return sentence;
  const cut = sentence.lastIndexOf(' ', STATEMENT_MAX - 1);
  return `${sentence.slice(0, cut > STATEMENT_MAX / 2 ? cut : STATEMENT_MAX - 1)}…`;
}

/** The system prompt of the chat distiller: it prefers "nothing stable here" (memQL §2.3). */
export const DISTIL_SYSTEM_PROMPT = [
  "You consolidate an AI coding agent's episodic memory (entries of its progress log) into durable beliefs.",
  'You get a group of episodes that were clustered because they are similar. Decide whether together they support',
  'ONE stable, reusable belief — a fact about the project, a preference, a convention, or a learned outcome — that',
  'will still be true and useful in future work.',
  'Prefer to answer that nothing stable is here: one-off events, transient status, progress reports, and anything you',
  'would have to guess are NOT beliefs. Never invent details that the episodes do not state.',
  'Answer with JSON only, one of:',
  '{"distilled": false}',
  `{"distilled": true, "kind": one of ${JSON.stringify(BELIEF_KINDS)}, "statement": "one self-contained sentence", "confidence": a number in [0, 1]}`,
].join('\n');

/** The messages sent for one cluster. */
export function distilMessages(cluster: readonly EpisodeLike[]): ChatMessage[] {
  const episodes = cluster
    .map(
      (e, i) => `${i + 1}. [${new Date(e.timeMs).toISOString()}] ${e.text.replace(/\s+/g, ' ').trim().slice(0, 1000)}`,
    )
    .join('\n');
  return [
    { role: 'system', content: DISTIL_SYSTEM_PROMPT },
    { role: 'user', content: `Episodes:\n${episodes}` },
  ];
}

/**
 * Validates a chat answer: `{distilled: false}` → null; `{distilled: true, statement, kind?, confidence?}`
 * → a belief (memQL's fact/preference/outcome are mapped to memory types; an unknown kind takes the default, a missing or out-of-range confidence the default).
 * Anything else → `ProviderMalformedError`.
 */
export function parseDistilAnswer(answer: unknown, endpoint: string, config: ConsolidationConfig): Distilled | null {
  const a = answer as { distilled?: unknown; statement?: unknown; kind?: unknown; confidence?: unknown } | null;
  if (!a || typeof a !== 'object' || typeof a.distilled !== 'boolean')
    throw new ProviderMalformedError(endpoint, 'the distiller answer has no boolean `distilled`');
  if (!a.distilled) return null;
  if (typeof a.statement !== 'string' || a.statement.trim() === '')
    throw new ProviderMalformedError(endpoint, 'a distilled belief needs a non-empty `statement`');
  const asked = typeof a.kind === 'string' ? a.kind.trim().toLowerCase() : '';
  const mapped = MEMQL_BELIEF_KINDS[asked] ?? asked;
  const kind = (BELIEF_KINDS as readonly string[]).includes(mapped) ? mapped : config.defaultKind;
  const confidence =
    typeof a.confidence === 'number' && a.confidence >= 0 && a.confidence <= 1
      ? a.confidence
      : config.defaultConfidence;
  return { statement: a.statement.replace(/\s+/g, ' ').trim().slice(0, 1000), kind, confidence };
}

/**
 * Distils one cluster with the chat provider when there is one, falling back to the extractive
 * distiller (with a warning) when the provider errors, times out or answers malformed JSON.
 */
export async function distilCluster(
  cluster: readonly EpisodeLike[],
  options: {
    chat?: ChatProvider | undefined;
    similarity: (a: string, b: string) => number;
    config: ConsolidationConfig;
    warnings: string[];
  },
): Promise<Distilled | null> {
  if (!options.chat) return distilExtractive(cluster, options.similarity, options.config);
  try {
    const answer = await chatJson(options.chat, distilMessages(cluster));
    return parseDistilAnswer(answer, options.chat.name, options.config);
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    options.warnings.push(`${error.message} — distilled extractively instead`);
    return distilExtractive(cluster, options.similarity, options.config);
  }
}

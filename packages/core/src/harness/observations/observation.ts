/** What an observation records (memQL's four kinds plus `transition`, the log of every status change). */
export type ObservationKind = 'tool_result' | 'error' | 'note' | 'decision' | 'transition';
export const OBSERVATION_KINDS: readonly ObservationKind[] = ['tool_result', 'error', 'note', 'decision', 'transition'];

export type ObservationValue = string | number;

/** One entry of a progress file: what happened, to which step, at which attempt, by whom, when. */
export interface Observation {
  /** ISO-8601 UTC time with milliseconds (`2026-05-01T12:00:00.123Z`). */
  readonly time: string;
  readonly kind: ObservationKind;
  /** The step id, or `plan:<name>` for plan-level entries (budget halts, plan status, planner decisions). */
  readonly step: string;
  readonly attempt: number;
  /** Who wrote it: a reconciler's `pid@host`, `planner`, a person's name. */
  readonly actor: string;
  /** What a person reads. LF line endings, no trailing whitespace at the end. */
  readonly text: string;
  /**
   * Structured details, flat: `from`/`to` for transitions, `tool`, `tool_calls`, `tokens`, `exit_code`,
   * `idem` (idempotency key), `stop_reason`, `choice`, `rationale`, `limit`, … Keys are `[a-z0-9_]+`.
   */
  readonly data: Readonly<Record<string, ObservationValue>>;
}

export const CORE_FIELDS = ['kind', 'step', 'attempt', 'actor'] as const;
const DATA_KEY = /^[a-z0-9_]+$/;

export interface ObservationInput {
  readonly kind: ObservationKind;
  readonly step: string;
  readonly attempt?: number;
  readonly actor: string;
  readonly text: string;
  readonly data?: Readonly<Record<string, ObservationValue | undefined>>;
  readonly time?: Date | string;
}

/** Normalizes observation text: CRLF/CR → LF, no leading blank lines, no trailing whitespace. */
export function normalizeObservationText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/^\n+/, '').trimEnd();
}

/**
 * Builds a well-formed observation (the form `formatObservation` round-trips exactly). Undefined data
 * values are dropped; non-finite numbers become strings. A malformed data key is a programming error.
 */
export function makeObservation(input: ObservationInput): Observation {
  const data: Record<string, ObservationValue> = {};
  for (const [key, value] of Object.entries(input.data ?? {})) {
    if (value === undefined) continue;
    if (!DATA_KEY.test(key) || (CORE_FIELDS as readonly string[]).includes(key))
      throw new TypeError(`observation data key ${JSON.stringify(key)} is not allowed`);
    // Non-finite numbers have no number literal; -0 prints as 0: normalize both so they read back as written.
    data[key] = typeof value === 'number' ? (Number.isFinite(value) ? value + 0 : String(value)) : value;
  }
  const time = input.time === undefined ? new Date() : input.time;
  return {
    time: typeof time === 'string' ? time : time.toISOString(),
    kind: input.kind,
    step: input.step,
    attempt: Math.max(0, Math.trunc(input.attempt ?? 0)),
    actor: input.actor,
    text: normalizeObservationText(input.text),
    data,
  };
}

/** The numeric value of a data field, or 0 (non-numbers count 0). */
export function dataNumber(observation: Observation, key: string): number {
  const value = observation.data[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

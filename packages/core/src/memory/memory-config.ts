import type { ConfigData } from '../config/config-file.js';
import { ConfigValueError } from '../config/errors.js';

/** Config key: the recency half-life of notes, a duration such as `30d`, `12h` or `2w`. */
export const KEY_NOTE_HALF_LIFE = 'memory.recall.note_half_life';
/** Config key: characters of a note the index reads (a positive whole number). */
export const KEY_MAX_NOTE_CHARS = 'memory.index.max_note_chars';
/**
 * Config key: how recall weighs recency — `prior` (default: relevance first, recency orders near-equal
 * matches) or `memql` (memQL's `0.7·relevance + 0.3·2^(−age/halfLife)`, for "what just happened").
 */
export const KEY_RECALL_FORMULA = 'memory.recall.formula';

/** What the memory keys of a config set; absent keys are absent (the engine's defaults apply). */
export interface MemorySettings {
  /** Recency half-life of notes, ms. */
  readonly noteHalfLife?: number;
  /** Characters of a note indexed. */
  readonly maxNoteChars?: number;
  /** How recall weighs recency. */
  readonly formula?: 'prior' | 'memql';
}

const UNITS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90m`, `12h`, `30d`, `2w` → milliseconds; undefined for anything else. Pure. */
export function parseHalfLife(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(m|h|d|w)\s*$/.exec(text);
  return m ? Number(m[1]) * UNITS[m[2]!]! : undefined;
}

/**
 * The memory settings of a config (`memory.recall.note_half_life`, `memory.index.max_note_chars`,
 * `memory.recall.formula`).
 * A key holding something it cannot mean is a ConfigValueError naming the key and a valid value —
 * never silently the default.
 */
export function memorySettingsFromConfig(config: ConfigData = {}): MemorySettings {
  const out: { noteHalfLife?: number; maxNoteChars?: number; formula?: 'prior' | 'memql' } = {};
  const halfLife = config[KEY_NOTE_HALF_LIFE];
  if (halfLife !== undefined) {
    const ms = typeof halfLife === 'string' ? parseHalfLife(halfLife) : undefined;
    if (ms === undefined || !(ms > 0))
      throw new ConfigValueError(
        KEY_NOTE_HALF_LIFE,
        `${KEY_NOTE_HALF_LIFE} is ${JSON.stringify(halfLife)}: it takes a duration such as "30d", "12h" or "2w" ` +
          `(agentm config set ${KEY_NOTE_HALF_LIFE} 30d)`,
      );
    out.noteHalfLife = ms;
  }
  const max = config[KEY_MAX_NOTE_CHARS];
  if (max !== undefined) {
    const n = typeof max === 'number' ? max : typeof max === 'string' && /^\s*\d+\s*$/.test(max) ? Number(max) : NaN;
    if (!Number.isSafeInteger(n) || n <= 0)
      throw new ConfigValueError(
        KEY_MAX_NOTE_CHARS,
        `${KEY_MAX_NOTE_CHARS} is ${JSON.stringify(max)}: it takes a positive whole number of characters ` +
          `(agentm config set ${KEY_MAX_NOTE_CHARS} 1000000)`,
      );
    out.maxNoteChars = n;
  }
  const formula = config[KEY_RECALL_FORMULA];
  if (formula !== undefined) {
    if (formula !== 'prior' && formula !== 'memql')
      throw new ConfigValueError(
        KEY_RECALL_FORMULA,
        `${KEY_RECALL_FORMULA} is ${JSON.stringify(formula)}: it takes "prior" (relevance first, recency a bounded prior) ` +
          `or "memql" (memQL's 0.7·relevance + 0.3·recency) (agentm config set ${KEY_RECALL_FORMULA} prior)`,
      );
    out.formula = formula;
  }
  return out;
}

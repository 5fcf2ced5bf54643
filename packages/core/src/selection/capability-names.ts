import {
  CAPABILITY_FLAGS,
  CAPABILITY_SNAKE_NAMES,
  type Capabilities,
  type CapabilityFlag,
} from '../seam/capabilities.js';

/** The names `--requires` accepts, as agentm spells them, in canonical order. */
export const VALID_CAPABILITY_NAMES: readonly string[] = CAPABILITY_FLAGS.map((f) => CAPABILITY_SNAKE_NAMES[f]);

/** The flag a name means: agentm's snake_case (`concurrent_writers`) or our camelCase (`concurrentWriters`). */
export function capabilityFlagOf(name: string): CapabilityFlag | undefined {
  const trimmed = name.trim();
  return CAPABILITY_FLAGS.find((flag) => flag === trimmed || CAPABILITY_SNAKE_NAMES[flag] === trimmed);
}

/**
 * Parses capability names (an array, or one comma-separated string). Returns the required flags and
 * every name that is not a capability (empty items are ignored).
 */
export function parseCapabilityNames(names: string | readonly string[]): {
  required: Partial<Capabilities>;
  unknown: string[];
} {
  const items = (typeof names === 'string' ? names.split(',') : names.flatMap((n) => n.split(',')))
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const required: Partial<Record<CapabilityFlag, boolean>> = {};
  const unknown: string[] = [];
  for (const item of items) {
    const flag = capabilityFlagOf(item);
    if (flag) required[flag] = true;
    else unknown.push(item);
  }
  return { required, unknown };
}

const UNITS: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
};

/** A recall duration as people write it: a number and an optional unit (`90s`, `30m`, `1h`, `7d`, `2w`; none = ms). */
export const DURATION_PATTERN = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/;

/** `90s`, `30m`, `1h`, `7d`, `2w`, or plain milliseconds → milliseconds; undefined for anything else. */
export function parseDurationMs(text: string): number | undefined {
  const m = DURATION_PATTERN.exec(text);
  return m ? Number(m[1]) * UNITS[m[2] ?? 'ms']! : undefined;
}

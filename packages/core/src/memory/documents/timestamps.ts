/**
 * Timestamps the episode parser accepts at the start of a heading or list item. Pure.
 *
 *   2026-01-05T10:32:07Z, 2026-01-05T10:32:07.123+02:00, 2026-01-05T10:32Z  (ISO 8601, with zone)
 *   2026-01-05T10:32, 2026-01-05 10:32, 2026-01-05 10:32:07                (local time)
 *   2026-01-05 10:32 UTC, 2026-01-05 10:32 +0200                           (space before the zone)
 *   2026-01-05                                                              (local midnight)
 *
 * Optionally wrapped in `[…]`, `(…)`, `**…**` or backticks. An inline field `[time:: …]` or
 * `[at:: …]` anywhere in the line also counts. Invalid calendar values (month 13, Feb 30) are not
 * timestamps.
 */

const STAMP =
  /(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:\s?(Z|UTC|GMT|[+-]\d{2}:?\d{2}))?)?/;
const LEADING = new RegExp(`^[\\s\\[(*_\`]*${STAMP.source}[\\])*_\`]*`);
const FIELD = new RegExp(`[\\[(](?:time|at|ts|timestamp)::\\s*${STAMP.source}\\s*[\\])]`, 'i');

export interface FoundTimestamp {
  /** Epoch milliseconds. */
  readonly ms: number;
  /** Characters of the line taken by the timestamp (and its wrapper), for a leading one; 0 for a field. */
  readonly length: number;
}

/** The timestamp at the start of `line` (after wrappers), or in an inline time field; undefined if none. */
export function findTimestamp(line: string): FoundTimestamp | undefined {
  const lead = LEADING.exec(line);
  if (lead) {
    const ms = toMs(lead.slice(1));
    if (ms !== undefined) return { ms, length: lead[0].length };
  }
  const field = FIELD.exec(line);
  if (field) {
    const ms = toMs(field.slice(1));
    if (ms !== undefined) return { ms, length: 0 };
  }
  return undefined;
}

const WHOLE = new RegExp(`^\\s*${STAMP.source}\\s*$`);

/** Parses a whole string as one timestamp of the accepted forms; undefined if it is not one. */
export function parseTimestamp(text: string): number | undefined {
  const m = WHOLE.exec(text);
  return m ? toMs(m.slice(1)) : undefined;
}

function toMs(groups: readonly (string | undefined)[]): number | undefined {
  const [y, mo, d, h, mi, s, frac, zone] = groups;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = h === undefined ? 0 : Number(h);
  const minute = mi === undefined ? 0 : Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const millis = frac === undefined ? 0 : Math.floor(Number(`0.${frac}`) * 1000);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || hour > 23 || minute > 59 || second > 60)
    return undefined;
  if (zone === undefined) return new Date(year, month - 1, day, hour, minute, second, millis).getTime();
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, millis);
  if (zone === 'Z' || zone === 'UTC' || zone === 'GMT') return utc;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4));
  return utc - sign * offset * 60_000;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

// Arithmetic, not a Date per call: parsing note dates is on every note's path through the index.
function daysIn(year: number, month: number): number {
  // Date.UTC reads years 0–99 as 1900–1999: keep its answer there.
  if (year < 100) return new Date(Date.UTC(year, month, 0)).getUTCDate();
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** Types of stats.mjs, for the tests that import it. */
export function percentile(values: readonly number[], p: number): number;
export function median(values: readonly number[]): number;
export function fmtMs(ms: number): string;
export function ratio(a: number, b: number): number;
export function pairedInterval(
  a: readonly number[],
  b: readonly number[],
  resamples?: number,
  seed?: number,
): [number, number];

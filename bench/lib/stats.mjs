/** Small statistics helpers shared by the benchmark scripts. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const median = (values) => percentile(values, 50);

export function fmtMs(ms) {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`;
}

export function ratio(a, b) {
  return Math.round((a / b) * 100) / 100;
}

/** Small statistics helpers shared by the benchmark scripts. */
import { rng } from './corpus.mjs';

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

/**
 * The 95 % paired bootstrap interval of mean(a) − mean(b), `a[i]` and `b[i]` measured on the same item:
 * how far the difference of two systems over a few questions could move with other questions like them.
 * Seeded, so a run prints the same interval for the same figures.
 */
export function pairedInterval(a, b, resamples = 4000, seed = 1) {
  const d = a.map((x, i) => x - b[i]);
  if (d.length === 0) return [NaN, NaN];
  const random = rng(seed);
  const means = [];
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < d.length; i++) sum += d[Math.floor(random() * d.length)];
    means.push(sum / d.length);
  }
  return [percentile(means, 2.5), percentile(means, 97.5)];
}

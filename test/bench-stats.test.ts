import { describe, expect, it } from 'vitest';
import { pairedInterval as interval } from '../bench/lib/stats.mjs';

describe("the quality bench's paired interval", () => {
  it('holds the mean difference, and is a point when every pair differs alike', () => {
    const a = [0.9, 0.2, 0.7, 1, 0.4, 0.6, 0.3, 0.8, 0.5];
    const b = [0.5, 0.6, 0.7, 0.2, 0.4, 0.9, 0.3, 0.8, 0.5];
    const mean = a.reduce((s, x, i) => s + x - b[i]!, 0) / a.length;
    const [lo, hi] = interval(a, b);
    expect(lo).toBeLessThan(mean);
    expect(hi).toBeGreaterThan(mean);
    expect(interval(a, a)).toEqual([0, 0]);
    expect(interval([1, 2, 3], [0.5, 1.5, 2.5])).toEqual([0.5, 0.5]);
  });

  it('narrows as more questions like these are asked, and prints the same for the same figures', () => {
    const a = [1, 0, 0.5, 1, 0.2, 0.8];
    const b = [0.6, 0.3, 0.5, 0.4, 0.6, 0.5];
    const [lo, hi] = interval(a, b);
    const [lo4, hi4] = interval([...a, ...a, ...a, ...a], [...b, ...b, ...b, ...b]);
    expect(hi4 - lo4).toBeLessThan(hi - lo);
    expect(interval(a, b)).toEqual([lo, hi]);
  });
});

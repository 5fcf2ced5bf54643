import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Debouncer } from '../../src/sources/debounce';

describe("Debouncer (the watchers' event batching)", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('a burst of events flushes once, with every item, after the quiet time', () => {
    const flushed: string[][] = [];
    const d = new Debouncer<string>((items) => flushed.push(items), 150, 1000);
    d.add('a');
    vi.advanceTimersByTime(100);
    d.add('b', 'c');
    vi.advanceTimersByTime(149);
    expect(flushed).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(flushed).toEqual([['a', 'b', 'c']]);
  });

  it('a steady stream (an agent writing) still flushes by the maximum wait', () => {
    const flushed: number[][] = [];
    const d = new Debouncer<number>((items) => flushed.push(items), 150, 1000);
    for (let t = 0; t < 1000; t += 100) {
      d.add(t);
      vi.advanceTimersByTime(100);
    }
    expect(flushed.length).toBe(1);
    expect(flushed[0]).toHaveLength(10);
  });

  it('dispose drops what is pending', () => {
    const flush = vi.fn();
    const d = new Debouncer<number>(flush);
    d.add(1);
    d.dispose();
    vi.advanceTimersByTime(5000);
    expect(flush).not.toHaveBeenCalled();
  });
});

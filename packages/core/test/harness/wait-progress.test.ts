import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatWait, showWhileWaiting, spinnerFrame, waitLine } from '../../src/cli/wait-progress.js';

const base = { prefix: 'agentm plan', label: 'the model m at http://h/v1', limitMs: 60_000 };

describe('waiting for a model', () => {
  afterEach(() => vi.useRealTimers());

  it.each([
    [60_000, '60 s'],
    [2_500, '2.5 s'],
    [120_000, '2 min'],
    [90_000, '90 s'],
  ])('formats %i ms as %s', (ms, text) => expect(formatWait(ms)).toBe(text));

  it('a line names what it waits for, the whole seconds waited and the limit', () => {
    expect(waitLine(base, 12_345)).toBe(
      'agentm plan: waiting for the model m at http://h/v1 (12 s; gives up after 60 s)',
    );
    expect(waitLine({ ...base, limitMs: undefined }, 1_000)).toBe(
      'agentm plan: waiting for the model m at http://h/v1 (1 s)',
    );
    expect(spinnerFrame(base, 1_000)).toBe(`\r⠋ ${waitLine(base, 1_000)}\x1b[K`);
  });

  it('not a terminal: silent for a second, then a plain line every 10 s', async () => {
    vi.useFakeTimers();
    const out: string[] = [];
    let finish!: (v: string) => void;
    const done = showWhileWaiting(
      { ...base, tty: false, write: (t) => out.push(t) },
      () => new Promise<string>((r) => (finish = r)),
    );
    await vi.advanceTimersByTimeAsync(900);
    expect(out).toEqual([]);
    await vi.advanceTimersByTimeAsync(21_000);
    expect(out.map((l) => /\((\d+) s/.exec(l)![1])).toEqual(['1', '11', '21']);
    expect(out.every((l) => l.endsWith(')\n') && !l.includes('\r'))).toBe(true);
    finish('answer');
    expect(await done).toBe('answer');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(out).toHaveLength(3);
  });

  it('a terminal: a spinner redrawn in place, erased when the answer comes; a fast answer shows nothing', async () => {
    vi.useFakeTimers();
    const out: string[] = [];
    let finish!: () => void;
    const done = showWhileWaiting(
      { ...base, tty: true, write: (t) => out.push(t) },
      () => new Promise<void>((r) => (finish = r)),
    );
    await vi.advanceTimersByTimeAsync(1_300);
    expect(out.length).toBeGreaterThan(2);
    expect(out.every((t) => t.startsWith('\r'))).toBe(true);
    finish();
    await done;
    expect(out.at(-1)).toBe('\r\x1b[K');
    const quiet: string[] = [];
    await showWhileWaiting({ ...base, tty: true, write: (t) => quiet.push(t) }, async () => 'fast');
    expect(quiet).toEqual([]);
  });
});

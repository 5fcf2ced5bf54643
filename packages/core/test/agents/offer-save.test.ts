import { describe, expect, it } from 'vitest';
import {
  autoSaveMode,
  confidenceThreshold,
  decideOffer,
  offerSave,
  type SaveCandidate,
} from '../../src/agents/hooks/offer-save.js';

const candidate = (confidence?: number): SaveCandidate => ({
  phase: 'work',
  project: 'proj',
  target: 'desk/projects/proj',
  kind: 'brief',
  slug: 'plan-x-done-12345678',
  body: '# Plan x done\n\nbody  \n\n',
  ...(confidence !== undefined ? { confidence, reason: 'plan x is done' } : {}),
});

describe("agentm's offer-save modes", () => {
  it.each([
    [undefined, 'ask'],
    ['', 'ask'],
    [' Silent ', 'silent'],
    ['OFF', 'off'],
    ['sometimes', 'ask'],
  ])('HARNESS_AUTO_SAVE_MODE=%j reads as %s', (value, mode) => {
    expect(autoSaveMode({ HARNESS_AUTO_SAVE_MODE: value })).toBe(mode);
  });

  it.each([
    [undefined, 0.8],
    ['0.5', 0.5],
    ['1', 1],
    ['1.5', 0.8],
    ['-0.1', 0.8],
    ['high', 0.8],
  ])('HARNESS_AUTO_SAVE_CONFIDENCE_THRESHOLD=%j reads as %s', (value, threshold) => {
    expect(confidenceThreshold({ HARNESS_AUTO_SAVE_CONFIDENCE_THRESHOLD: value })).toBe(threshold);
  });

  it.each([
    ['off', 0.99, 'off'],
    ['silent', undefined, 'silent-save'],
    ['silent', 0.1, 'silent-save'],
    ['ask', undefined, 'prompt'],
    ['ask', 0.79, 'prompt'],
    ['ask', 0.8, 'auto-save'], // equal to the threshold: no prompt (agentm)
    ['ask', 0.95, 'auto-save'],
  ] as const)('mode %s, confidence %s → %s', (mode, confidence, decision) => {
    expect(decideOffer(mode, 0.8, confidence)).toBe(decision);
  });
});

describe('offerSave', () => {
  async function offer(env: Record<string, string>, c: SaveCandidate, confirm?: (q: string) => Promise<boolean>) {
    const lines: string[] = [];
    let saves = 0;
    const outcome = await offerSave(c, {
      env,
      say: (l) => lines.push(l),
      confirm,
      save: async () => void saves++,
    });
    return { outcome, lines, saves };
  }

  it('a non-interactive stdin never prompts: the preview, then SKIP, and nothing saved', async () => {
    const { outcome, lines, saves } = await offer({}, candidate(0.5));
    expect(outcome).toBe('skipped');
    expect(saves).toBe(0);
    expect(lines[0]).toBe(
      [
        '--- offer-save preview (work → desk/projects/proj) ---',
        'kind: brief',
        'slug: plan-x-done-12345678',
        'confidence: 0.50 (threshold: 0.80)',
        'reason: plan x is done',
        'body:',
        '---',
        '# Plan x done\n\nbody',
        '---',
        '',
      ].join('\n'),
    );
    expect(lines[1]).toBe('[harness_memory] non-TTY stdin — defaulting to SKIP for brief/plan-x-done-12345678');
  });

  it('asks at a terminal: only y or yes saves', async () => {
    const asked: string[] = [];
    const yes = await offer({}, candidate(), async (q) => (asked.push(q), true));
    expect([yes.outcome, yes.saves, asked]).toEqual(['saved', 1, ['save this entry? [y/N] ']]);
    const no = await offer({}, candidate(), async () => false);
    expect([no.outcome, no.saves, no.lines.at(-1)]).toEqual([
      'skipped',
      0,
      '[harness_memory] skipped brief/plan-x-done-12345678',
    ]);
  });

  it('saves without asking at or above the threshold, and silently in silent mode', async () => {
    const high = await offer({}, candidate(0.9));
    expect([high.outcome, high.saves, high.lines]).toEqual([
      'saved',
      1,
      ['[auto-saved high-confidence] brief/plan-x-done-12345678 (confidence=0.90 ≥ threshold=0.80)'],
    ]);
    const silent = await offer({ HARNESS_AUTO_SAVE_MODE: 'silent' }, candidate());
    expect([silent.outcome, silent.lines]).toEqual([
      'saved',
      ['[harness_memory] silent save: brief/plan-x-done-12345678'],
    ]);
  });

  it('off skips whatever the confidence', async () => {
    const off = await offer({ HARNESS_AUTO_SAVE_MODE: 'off' }, candidate(1));
    expect([off.outcome, off.saves, off.lines]).toEqual([
      'off',
      0,
      ['[harness_memory] HARNESS_AUTO_SAVE_MODE=off — skip save: brief/plan-x-done-12345678'],
    ]);
  });
});

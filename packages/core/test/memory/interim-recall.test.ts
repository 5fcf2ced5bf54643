import { describe, expect, it } from 'vitest';
import { MemoryBackend } from '../../src/backends/memory-backend.js';
import { saveNote } from '../../src/memory/notes/save.js';
import { basicPhaseRecall } from '../../src/memory/recall/basic-recall.js';
import { DEFAULT_PHASE_BUDGETS, normalizePhase, phaseBudget } from '../../src/memory/recall/budget.js';

describe('phase budgets', () => {
  it('limit → HARNESS_RECALL_BUDGET_<PHASE> → agentm default; unknown phase → work', () => {
    expect(DEFAULT_PHASE_BUDGETS).toEqual({
      setup: 4000,
      plan: 6000,
      work: 6000,
      review: 4000,
      release: 6000,
      bugfix: 6000,
      documenter: 10000,
    });
    expect(phaseBudget('documenter')).toBe(10000);
    expect(phaseBudget('review', { env: { HARNESS_RECALL_BUDGET_REVIEW: '123' } })).toBe(123);
    expect(phaseBudget('review', { env: { HARNESS_RECALL_BUDGET_REVIEW: '-5' } })).toBe(4000);
    expect(phaseBudget('review', { limit: 50, env: { HARNESS_RECALL_BUDGET_REVIEW: '123' } })).toBe(50);
    expect(phaseBudget('review', { limit: 0 })).toBe(4000);
    expect(normalizePhase('Bugfix ')).toBe('bugfix');
    expect(normalizePhase('deploy')).toBe('work');
    expect(normalizePhase(undefined)).toBe('work');
  });
});

describe('interim recall', () => {
  it('always-load notes first, then the project notes newest first; superseded and harness files left out', async () => {
    const backend = new MemoryBackend();
    await saveNote(backend, { kind: 'preference', slug: 'tabs', body: 'always tabs\n', alwaysLoad: true });
    await saveNote(
      backend,
      { kind: 'fix', slug: 'older', group: 'desk/projects/p', body: 'older fix\n' },
      { now: new Date(2026, 0, 1) },
    );
    await saveNote(
      backend,
      { kind: 'fix', slug: 'newer', group: 'desk/projects/p', body: 'newer fix\n' },
      { now: new Date(2026, 0, 2) },
    );
    await backend.write(backend.resolve('desk/projects/p/_harness/PLAN.md'), '- [ ] not a note\n');
    await backend.write(
      backend.resolve('desk/projects/p/fix/gone.md'),
      '---\ntype: fix\nstatus: superseded\n---\n\ngone\n',
    );
    const text = await basicPhaseRecall(backend, {
      projectLocator: backend.resolve('desk/projects/p'),
      projectSlug: 'p',
      phase: 'plan',
    });
    const order = ['always tabs', 'newer fix', 'older fix'].map((s) => text.indexOf(s));
    expect(order.every((i) => i >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).not.toContain('not a note');
    expect(text).not.toContain('gone');
    expect(text.startsWith('# Recall (plan)\n')).toBe(true);
  });

  it('stays within the budget (≈4 chars a token), whole notes only; nothing stored → ""', async () => {
    const backend = new MemoryBackend();
    expect(await basicPhaseRecall(backend, { projectLocator: backend.resolve('desk/projects/p') })).toBe('');
    for (let i = 0; i < 20; i++)
      await saveNote(backend, {
        kind: 'fix',
        slug: `n${i}`,
        group: 'desk/projects/p',
        body: `${'x'.repeat(150)} ${i}\n`,
      });
    const text = await basicPhaseRecall(backend, { projectLocator: backend.resolve('desk/projects/p'), limit: 200 });
    expect(text.length).toBeLessThanOrEqual(800);
    expect(text.length).toBeGreaterThan(150);
    expect((text.match(/^### /gm) ?? []).length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan(
      (await basicPhaseRecall(backend, { projectLocator: backend.resolve('desk/projects/p'), limit: 400 })).length,
    );
  });
});

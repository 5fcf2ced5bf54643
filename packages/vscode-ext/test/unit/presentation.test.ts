import { describe, expect, it } from 'vitest';
import type { StepView } from '../../src/sources/types';
import { STEP_ICONS, hitText, planDescription, stepText } from '../../src/views/presentation';

const step = (over: Partial<StepView>): StepView => ({
  id: 's1',
  title: 'Write the parser',
  status: 'pending',
  after: [],
  attempt: 0,
  line: 3,
  ...over,
});

describe('Plan view presentation', () => {
  it.each([
    ['running', 'loading~spin'],
    ['done', 'pass-filled'],
    ['failed', 'error'],
    ['blocked', 'question'],
    ['cancelled', 'circle-slash'],
    ['pending', 'circle-large-outline'],
  ] as const)('a %s step shows the %s icon', (status, icon) => {
    expect(STEP_ICONS[status].icon).toBe(icon);
  });

  it('only a running step spins', () => {
    const spinning = Object.entries(STEP_ICONS)
      .filter(([, v]) => v.icon.endsWith('~spin'))
      .map(([k]) => k);
    expect(spinning).toEqual(['running']);
  });

  it('a step lists its after dependencies and a retried attempt in its description', () => {
    const text = stepText(step({ status: 'failed', after: ['a', 'b'], attempt: 2 }));
    expect(text.description).toBe('failed · after a, b · attempt 2');
    expect(text.contextValue).toBe('agentm.step.failed');
  });

  it('a first-attempt step without dependencies shows only its status', () => {
    expect(stepText(step({})).description).toBe('pending');
  });

  it('a plan counts its done steps and says when it is active', () => {
    const steps = [step({ status: 'done' }), step({ id: 's2', status: 'running' }), step({ id: 's3' })];
    expect(planDescription({ active: true, status: 'running', steps })).toBe('active · running · 1/3 done');
    expect(planDescription({ active: false, status: 'draft', steps: [] })).toBe('draft');
  });

  it('a search hit shows its score; a phase-recall hit (no query to score against) its date', () => {
    const hit = {
      title: 'Prefer stdlib',
      kind: 'convention',
      uri: undefined as never,
      score: 0.8312,
      similarity: 0.9,
      recency: 0.6,
      snippet: 'Prefer…',
      updatedMs: Date.UTC(2026, 1, 3),
    };
    expect(hitText(hit).description).toBe('convention · score 0.83');
    expect(hitText(hit, false).description).toBe('convention · 2026-02-03');
    expect(hitText(hit).tooltip).toContain('relevance 0.900, recency 0.600');
  });
});

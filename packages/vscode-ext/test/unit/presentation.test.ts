import { describe, expect, it } from 'vitest';
import type { StepView } from '../../src/sources/types';
import { STEP_ICONS, hitText, planDescription, planText, stepText } from '../../src/views/presentation';

const step = (over: Partial<StepView>): StepView => ({
  id: 's1',
  title: 'Write the parser',
  status: 'pending',
  after: [],
  attempt: 0,
  line: 3,
  cmd: undefined,
  lastFailure: undefined,
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

  it('a step tooltip shows its command, its attempt and the reason of its last failure, whole', () => {
    const reason = 'step "check" dispatch failed: $ test -f ok-marker\nexit 1 after 0.0 s\nno such file: ok-marker';
    const tooltip = stepText(
      step({
        id: 'check',
        title: 'Check the marker',
        status: 'failed',
        attempt: 1,
        cmd: 'test -f ok-marker',
        lastFailure: { attempt: 1, when: '2026-11-26T08:00:00.000Z', reason },
      }),
    ).tooltip;
    expect(tooltip.split('\n')).toEqual([
      'check: Check the marker',
      'status: failed',
      'attempt 1 (retried once)',
      'command: test -f ok-marker',
      'last failure (attempt 1, 2026-11-26T08:00:00.000Z):',
      '$ test -f ok-marker',
      'exit 1 after 0.0 s',
      'no such file: ok-marker',
    ]);
  });

  it("a step without a command shows its title as the model's goal; a first try says so", () => {
    const tooltip = stepText(step({ title: 'Summarise the notes' })).tooltip;
    expect(tooltip).toContain('goal (for the model): Summarise the notes');
    expect(tooltip).toContain('attempt 0 (the first)');
    expect(tooltip).not.toContain('last failure');
  });

  it('a plan is labelled by its goal, with its file name beside it; without one, by its name', () => {
    const base = { active: true, status: 'open', steps: [step({ status: 'done' }), step({ id: 's2' })] };
    expect(planText({ ...base, name: 'PLAN', title: 'Ship the parser', goal: 'Ship the parser' })).toEqual({
      label: 'Ship the parser',
      description: 'PLAN · active · open · 1/2 done',
      tooltip: 'plan PLAN: Ship the parser\nactive · open · 1/2 done',
    });
    expect(planText({ ...base, name: 'build', title: 'build', goal: undefined }).label).toBe('build');
    expect(planText({ ...base, name: 'build', title: 'build', goal: undefined }).description).toBe(
      'active · open · 1/2 done',
    );
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

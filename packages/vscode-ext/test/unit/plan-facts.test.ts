import { describe, expect, it } from 'vitest';
import { appendObservations, makeObservation } from '@agentm/core/harness';
import { failureHeadline, failureReason, lastFailures, planFacts } from '../../src/sources/plan-facts';

describe("a step's last failure", () => {
  const entry = (kind: 'error' | 'note' | 'transition', step: string, text: string, attempt = 0) =>
    makeObservation({ kind, step, attempt, actor: 'a@b', text, time: '2026-11-26T08:00:00.000Z' });

  it('is the latest error entry about the step; plan-level and other kinds are not failures', () => {
    const failures = lastFailures([
      entry('error', 'check', 'first failure'),
      entry('transition', 'check', 'running → failed'),
      entry('error', 'check', 'second failure', 1),
      entry('note', 'other', 'just a note'),
      entry('error', 'plan:PLAN', 'budget exhausted'),
    ]);
    expect([...failures.keys()]).toEqual(['check']);
    expect(failures.get('check')).toEqual({ attempt: 1, when: '2026-11-26T08:00:00.000Z', reason: 'second failure' });
  });

  it("reads without the log's head, and in a notification without the command echo", () => {
    const text = 'step "check" dispatch failed: $ test -f ok-marker\nexit 1 after 0.0 s\n\nmissing: ok-marker';
    expect(failureReason(text)).toBe('$ test -f ok-marker\nexit 1 after 0.0 s\n\nmissing: ok-marker');
    expect(failureHeadline(text)).toBe('exit 1 after 0.0 s · missing: ok-marker');
  });

  it("a model step's stop reason and error class are left out of a notification", () => {
    const text = 'step "ask" dispatch failed: stopped (hard_error): internal: no chat model is available for this step';
    expect(failureHeadline(text)).toBe('no chat model is available for this step');
    expect(failureHeadline('step "ask" dispatch failed: stopped (budget_exhausted): the plan budget ran out')).toBe(
      'the plan budget ran out',
    );
  });

  it('a long reason is cut in a notification only', () => {
    const long = `step "x" dispatch failed: ${'y'.repeat(1000)}`;
    expect(failureHeadline(long, 50)).toHaveLength(50);
    expect(failureHeadline(long, 50).endsWith('…')).toBe(true);
    expect(failureReason(long)).toHaveLength(1000);
  });
});

describe('a plan as the view shows it', () => {
  const plan = (status: string, box: string) =>
    `---\ngoal: make a file\nstatus: ${status}\n---\n\n- [${box}] Make the file [id:: make] [cmd:: touch ran.txt]\n`;

  // The view once took the plan's status from the listing's earlier read and its steps from a later
  // one: a run finishing between them showed "open · 1/1 done".
  it('takes its status, title and steps from the one text it is given', () => {
    const facts = planFacts('build', plan('done', 'x'), '');
    expect(facts).toMatchObject({ name: 'build', title: 'make a file', goal: 'make a file', status: 'done' });
    expect(facts.steps.map((s) => [s.id, s.status, s.cmd])).toEqual([['make', 'done', 'touch ran.txt']]);
    expect(planFacts('build', plan('open', ' '), '')).toMatchObject({ status: 'open' });
  });

  it('is open when the plan says no status, and lists the newest progress entries first', () => {
    const log = [
      makeObservation({
        kind: 'note',
        step: 'make',
        attempt: 0,
        actor: 'a@b',
        text: 'first',
        time: '2026-11-26T08:00:00.000Z',
      }),
      makeObservation({
        kind: 'note',
        step: 'make',
        attempt: 0,
        actor: 'a@b',
        text: 'second',
        time: '2026-11-26T09:00:00.000Z',
      }),
    ];
    const progress = appendObservations('', log);
    const facts = planFacts('PLAN', '- [ ] Make the file [id:: make]\n', progress);
    expect(facts.status).toBe('open');
    expect(facts.progress.map((e) => e.text)).toEqual(['second', 'first']);
  });
});

import { describe, expect, it } from 'vitest';
import { InvalidTransitionError, RetryAttemptError, UnknownStepError } from '../../src/harness/errors.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import { transitionStep, transitionSteps } from '../../src/harness/plan/plan-edit.js';
import { retryBumpsAttempt, stepTransitionAllowed } from '../../src/harness/plan/state-machine.js';

const S = ['pending', 'ready', 'running', 'blocked', 'done', 'failed', 'cancelled'] as const;
/** Rows: from; columns: to, in the order of S. memQL's table plus the cancelled row and column. */
const TABLE: Record<(typeof S)[number], string> = {
  pending: 'YY....Y',
  ready: '.YY...Y',
  running: '..YYYYY',
  blocked: '.Y.Y..Y',
  done: '....Y..',
  failed: '.Y...YY',
  cancelled: '......Y',
};

describe('the step state machine', () => {
  const cases = S.flatMap((from) => S.map((to, i) => [from, to, TABLE[from][i] === 'Y'] as const));
  it.each(cases)('%s → %s allowed: %s', (from, to, allowed) => {
    expect(stepTransitionAllowed(from, to)).toBe(allowed);
  });

  it.each([
    ['', 'running', true],
    ['', 'bogus', false],
    ['Pending', 'ready', false],
    ['pending', 'Ready', false],
    ['unknown', 'unknown', false],
  ])('edge: %j → %j is %s (memQL evaluation order)', (from, to, allowed) => {
    expect(stepTransitionAllowed(from, to)).toBe(allowed);
  });

  it.each([
    ['failed', 'ready', 0, 1, true],
    ['failed', 'ready', 2, 2, false],
    ['failed', 'ready', 3, 1, false],
    ['blocked', 'ready', 0, 0, true],
    ['running', 'done', 5, 0, true],
  ])('retry %s → %s from attempt %d to %d passes: %s', (from, to, prior, next, ok) => {
    expect(retryBumpsAttempt(from, to, prior, next)).toBe(ok);
  });
});

describe('transitions on a plan file (enforced on every write)', () => {
  const plan = '- [x] a [id:: a]\n- [!] b [id:: b] [attempt:: 1]\n- [ ] c [after:: a]\n- [ ] d [after:: b]\n';

  it('refuses an illegal move with a typed error naming the step and the move', () => {
    const error = (() => {
      try {
        transitionStep(parsePlan(plan), { step: 'a', to: 'running' });
      } catch (e) {
        return e;
      }
    })() as InvalidTransitionError;
    expect(error).toBeInstanceOf(InvalidTransitionError);
    expect(error.message).toContain('plan step "a": invalid transition "done" -> "running"');
    expect([error.from, error.to, error.code]).toEqual(['done', 'running', 'EINVALIDTRANSITION']);
  });

  it('a pending step whose dependency is not done cannot be claimed (it is not ready)', () => {
    expect(() => transitionStep(parsePlan(plan), { step: 'd', to: 'running' })).toThrow(
      'invalid transition "pending" -> "running"',
    );
  });

  it('a retry must increment the attempt, and the attempt never goes down', () => {
    expect(() => transitionStep(parsePlan(plan), { step: 'b', to: 'ready' })).toThrow(RetryAttemptError);
    expect(() => transitionStep(parsePlan(plan), { step: 'b', to: 'ready' })).toThrow(
      'retry ("failed" -> "ready") must increment attempt (was 1)',
    );
    expect(() => transitionStep(parsePlan(plan), { step: 'b', to: 'ready', attempt: 0 })).toThrow(
      InvalidTransitionError,
    );
    const { doc } = transitionStep(parsePlan(plan), { step: 'b', to: 'ready', attempt: 2 });
    expect(doc.text.split('\n')[1]).toBe('- [ ] b [id:: b] [attempt:: 2]');
  });

  it('claims a ready step by rewriting its symbol and adding fields, persisting a derived id', () => {
    const { doc, applied } = transitionStep(parsePlan(plan), { step: 'c', to: 'running', fields: { agent: '9@h' } });
    expect(applied).toEqual({ step: 'c', from: 'ready', to: 'running', attempt: 0, line: 2 });
    expect(doc.text).toBe(
      '- [x] a [id:: a]\n- [!] b [id:: b] [attempt:: 1]\n- [/] c [after:: a] [id:: c] [agent:: 9@h]\n- [ ] d [after:: b]\n',
    );
  });

  it('refuses to mark a step running without a claimant (an unclaimed [/] reads back as pending)', () => {
    expect(() => transitionStep(parsePlan(plan), { step: 'c', to: 'running' })).toThrow(
      /plan step "c": invalid transition "ready" -> "running" \(a step runs only when claimed: give its \[agent:: …\]\)/,
    );
  });

  it('applies a sequence through the machine (running → failed → ready with a bump)', () => {
    const running = transitionStep(parsePlan(plan), { step: 'c', to: 'running', fields: { agent: '9@h' } }).doc;
    const { doc, applied } = transitionSteps(running, [
      { step: 'c', to: 'failed' },
      { step: 'c', to: 'ready', attempt: 1 },
    ]);
    expect(applied.map((a) => `${a.from}->${a.to}@${a.attempt}`)).toEqual(['running->failed@0', 'failed->ready@1']);
    expect(doc.steps[2]!).toMatchObject({ stored: 'pending', attempt: 1 });
  });

  it('refuses unknown and ambiguous step ids, and steps with foreign symbols', () => {
    expect(() => transitionStep(parsePlan(plan), { step: 'zz', to: 'ready' })).toThrow(UnknownStepError);
    expect(() =>
      transitionStep(parsePlan('- [ ] x [id:: q]\n- [ ] y [id:: q]\n'), { step: 'q', to: 'cancelled' }),
    ).toThrow(/2 checklist items share this id/);
    expect(() => transitionStep(parsePlan('- [>] later\n'), { step: 'later', to: 'ready' })).toThrow(
      'unknown status symbol [>]',
    );
  });

  it('cancelled and done are final', () => {
    const doc = parsePlan('- [-] x\n- [x] y\n');
    for (const to of ['ready', 'running', 'done'] as const)
      expect(() => transitionStep(doc, { step: 'x', to })).toThrow(InvalidTransitionError);
    expect(() => transitionStep(doc, { step: 'y', to: 'cancelled' })).toThrow(InvalidTransitionError);
  });

  it('keeps the line ending and every other byte of a CRLF file', () => {
    const text = '# T\r\n- [ ] one\r\n- [ ] two\r\nend';
    const { doc } = transitionStep(parsePlan(text), { step: 'two', to: 'cancelled' });
    expect(doc.text).toBe('# T\r\n- [ ] one\r\n- [-] two [id:: two]\r\nend');
  });
});

import { describe, expect, it } from 'vitest';
import { makeObservation } from '../../src/harness/observations/observation.js';
import { appendObservations } from '../../src/harness/observations/progress-format.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import {
  parseCursor,
  progressSince,
  promotionBody,
  promotionConfidence,
  promotionSlug,
} from '../../src/agents/hooks/plan-done-promotion.js';

const DONE = '---\ngoal: ship it\n---\n- [x] build [id:: build]\n- [x] test [id:: test]\n';
const at = (i: number) => `2026-11-26T10:00:0${i}.000Z`;

describe('the promotion cursor (agentm: a byte offset and a line feed)', () => {
  it.each([
    [undefined, 0],
    ['', 0],
    ['42\n', 42],
    [' 7 ', 7],
    ['-3\n', 0],
    ['1e3', 0],
    ['abc', 0],
  ])('%j reads as %d', (text, offset) => {
    expect(parseCursor(text)).toBe(offset);
  });

  it('counts bytes, not characters, and has nothing new at or past the end', () => {
    const log = 'café\nnew line\n';
    expect(progressSince(log, 0)).toEqual({ text: log, end: 15 });
    expect(progressSince(log, 6)).toEqual({ text: 'new line\n', end: 15 });
    expect(progressSince(log, 15)).toBeUndefined();
    expect(progressSince(log, 99)).toBeUndefined();
    // A cursor inside a character reads the rest as agentm does (replacement character), not an error.
    expect(progressSince(log, 4)?.text.startsWith('\uFFFD')).toBe(true);
  });
});

describe('promotionBody', () => {
  it('keeps notes and decisions, never tool results, errors or breadcrumbs', () => {
    const log = appendObservations('', [
      makeObservation({
        kind: 'tool_result',
        step: 'build',
        actor: 'r',
        text: 'TOKEN=sk-secret printed by a command',
        time: at(1),
      }),
      makeObservation({ kind: 'error', step: 'test', actor: 'r', text: 'stack trace with /home/me/x', time: at(2) }),
      makeObservation({ kind: 'transition', step: 'test', actor: 'r', text: 'running → done', time: at(3) }),
      makeObservation({
        kind: 'note',
        step: 'plan:x',
        actor: 'claude-code',
        text: 'breadcrumb',
        data: { event: 'pre_compact' },
        time: at(4),
      }),
      makeObservation({ kind: 'decision', step: 'test', actor: 'a', text: 'kept the retry at 3', time: at(5) }),
      makeObservation({ kind: 'note', step: 'build', actor: 'a', text: 'cache hit\nsecond line', time: at(6) }),
    ]);
    const body = promotionBody(parsePlan(DONE), 'x', log)!;
    expect(body).toBe(
      [
        '# Plan x done',
        '',
        'Goal: ship it',
        '',
        '## Steps',
        '',
        '- [x] build (`build`)',
        '- [x] test (`test`)',
        '',
        '## Notes and decisions',
        '',
        `- ${at(5)} · test · kept the retry at 3`,
        `- ${at(6)} · build · cache hit`,
        '  second line',
        '',
      ].join('\n'),
    );
    expect(body).not.toContain('sk-secret');
    expect(body).not.toContain('/home/me');
  });

  it('a free-form log (agentm style) is promoted as written', () => {
    expect(promotionBody(parsePlan(DONE), 'PLAN', '## 2026-11-26\nShipped.\n')).toContain('# Plan done\n');
    expect(promotionBody(parsePlan(DONE), 'PLAN', '## 2026-11-26\nShipped.\n')).toContain(
      '## Log\n\n## 2026-11-26\nShipped.\n',
    );
  });

  it('nothing to promote when the new progress is only breadcrumbs or tool output', () => {
    const log = appendObservations('', [
      makeObservation({ kind: 'note', step: 'plan:x', actor: 'c', text: 'breadcrumb', data: { event: 'pre_compact' } }),
      makeObservation({ kind: 'tool_result', step: 'build', actor: 'r', text: 'ok' }),
    ]);
    expect(promotionBody(parsePlan(DONE), 'x', log)).toBeUndefined();
    expect(promotionBody(parsePlan(DONE), 'x', '  \n')).toBeUndefined();
  });
});

describe('promotion confidence and slug', () => {
  it('confidence is the share of settled steps that are done', () => {
    expect(promotionConfidence(parsePlan(DONE))).toBe(1);
    expect(promotionConfidence(parsePlan('- [x] a\n- [x] b\n- [-] c\n'))).toBe(0.67);
    expect(promotionConfidence(parsePlan('no steps\n'))).toBeUndefined();
  });

  it('the slug is a valid note slug, the same for the same body', () => {
    expect(promotionSlug('My Plan.v2', 'b')).toMatch(/^plan-my-plan-v2-done-[0-9a-f]{8}$/);
    expect(promotionSlug('PLAN', 'b')).toMatch(/^plan-done-[0-9a-f]{8}$/);
    expect(promotionSlug('x', 'b')).toBe(promotionSlug('x', 'b'));
    expect(promotionSlug('x', 'b')).not.toBe(promotionSlug('x', 'c'));
    expect(promotionSlug('Ünïcode', 'b')).toMatch(/^plan-n-code-done-[0-9a-f]{8}$/);
  });
});

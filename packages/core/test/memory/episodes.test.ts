import { describe, expect, it } from 'vitest';
import {
  BOOKKEEPING_TEXT,
  MIXED_PROGRESS_LOG,
  MIXED_PROGRESS_MEMORIES,
} from '../../src/memory/documents/mixed-progress-sample.js';
import { parseEpisodes } from '../../src/memory/documents/episodes.js';
import { findTimestamp, parseTimestamp } from '../../src/memory/documents/timestamps.js';
import { noteFingerprint } from '../../src/memory/notes/fingerprint.js';
import { makeObservation, type ObservationKind } from '../../src/harness/observations/observation.js';
import { formatObservation } from '../../src/harness/observations/progress-format.js';

const SRC = { locator: 'desk/projects/agentm/_harness/progress.md', owner: 'agentm', fallbackMs: 42 };
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s).getTime();

describe('timestamps', () => {
  it.each([
    ['2026-01-05T10:32:07Z', Date.UTC(2026, 0, 5, 10, 32, 7)],
    ['2026-01-05T10:32:07.250Z', Date.UTC(2026, 0, 5, 10, 32, 7, 250)],
    ['2026-01-05T10:32:07+02:00', Date.UTC(2026, 0, 5, 8, 32, 7)],
    ['2026-01-05T10:32-0130', Date.UTC(2026, 0, 5, 12, 2)],
    ['2026-01-05 10:32 UTC', Date.UTC(2026, 0, 5, 10, 32)],
    ['2026-01-05 10:32', local(2026, 1, 5, 10, 32)],
    ['2026-01-05T10:32', local(2026, 1, 5, 10, 32)],
    ['2026-01-05 10:32:45', local(2026, 1, 5, 10, 32, 45)],
    ['2026-01-05', local(2026, 1, 5)],
  ])('accepts %s', (text, ms) => {
    expect(parseTimestamp(text)).toBe(ms);
  });

  it.each(['2026-13-01', '2026-02-30', '2026-01-05 25:00', 'yesterday', '05/01/2026', ''])('refuses %j', (text) => {
    expect(parseTimestamp(text)).toBeUndefined();
  });

  it('finds a leading stamp inside brackets, bold or backticks, and an inline time field', () => {
    expect(findTimestamp('[2026-01-05 10:32] ran the tests')?.ms).toBe(local(2026, 1, 5, 10, 32));
    expect(findTimestamp('**2026-01-05T10:32:00Z** tool_result: ok')?.ms).toBe(Date.UTC(2026, 0, 5, 10, 32));
    expect(findTimestamp('`2026-01-05T10:32Z` note')?.ms).toBe(Date.UTC(2026, 0, 5, 10, 32));
    expect(findTimestamp('tool_result ok [time:: 2026-01-05T10:32:00Z] [step:: s1]')).toEqual({
      ms: Date.UTC(2026, 0, 5, 10, 32),
      length: 0,
    });
    expect(findTimestamp('fixed the bug seen on 2026-01-05')).toBeUndefined();
  });
});

describe('parseEpisodes', () => {
  it('makes one episode per top-level list item and per heading section with paragraphs', () => {
    const text = [
      '---',
      'plan: x',
      '---',
      '# Progress',
      '',
      '## 2026-01-05 10:00 Set-up',
      'Installed pnpm and built the workspace.',
      '',
      '- 2026-01-05T10:05:00Z [tool_result] ran `pnpm test`: 12 passed',
      '  second line of the same item',
      '- [2026-01-05 10:07] decision: keep vitest',
      '',
      '## 2026-01-06',
      '- harness observation without its own time',
      '  ```',
      '  - not an item (inside a fence)',
      '  ```',
      '',
      '## Notes without a date',
      'Free text paragraph.',
    ].join('\n');
    const eps = parseEpisodes(text, SRC);
    expect(eps.map((e) => [e.line, e.text.split('\n')[0], e.timeMs, e.timestamped])).toEqual([
      // As a person reads them: no heading marks, timestamps or an older AgentM's kind tags.
      [6, 'Set-up', local(2026, 1, 5, 10), true],
      [9, 'ran `pnpm test`: 12 passed', Date.UTC(2026, 0, 5, 10, 5), true],
      [11, 'decision: keep vitest', local(2026, 1, 5, 10, 7), true],
      [14, 'harness observation without its own time', local(2026, 1, 6), true],
      [19, 'Notes without a date', 42, false],
    ]);
    expect(eps[1]!.text).toContain('second line of the same item');
    expect(eps[3]!.text).toContain('- not an item (inside a fence)');
    expect(eps[0]!.title).toBe('Set-up');
    expect(eps[2]!.title).toBe('decision: keep vitest');
    expect(eps.every((e) => e.owner === 'agentm' && e.id.startsWith(`${SRC.locator}#`))).toBe(true);
  });

  it('keeps an episode id when the rest of the file changes, and when only whitespace or case changes', () => {
    const before = parseEpisodes('- 2026-01-05T10:05:00Z ran the tests\n- second entry\n', SRC);
    const after = parseEpisodes(
      '# Log\n\n- a new first entry\n\n- 2026-01-05T10:05:00Z   RAN the tests\n- second entry edited\n',
      SRC,
    );
    expect(after.find((e) => e.text.includes('RAN'))!.id).toBe(before[0]!.id);
    expect(after.map((e) => e.id)).not.toContain(before[1]!.id);
  });

  it('gives identical entries in one file distinct ids, and the same text in another file another id', () => {
    const eps = parseEpisodes('- ran the tests: ok\n- ran the tests: ok\n', SRC);
    expect(new Set(eps.map((e) => e.id)).size).toBe(2);
    const other = parseEpisodes('- ran the tests: ok\n', {
      ...SRC,
      locator: 'desk/projects/agentm/_harness/progress-x.md',
    });
    expect(other[0]!.id).not.toBe(eps[0]!.id);
    expect(eps[0]!.fingerprint).toBe(noteFingerprint('ran the tests: ok'));
  });

  it('reads CRLF files like LF files', () => {
    const lf = parseEpisodes('## 2026-01-05\n- one\n- two\n', SRC);
    const crlf = parseEpisodes('## 2026-01-05\r\n- one\r\n- two\r\n', SRC);
    expect(crlf.map((e) => e.id)).toEqual(lf.map((e) => e.id));
  });

  it('treats an empty or title-only file as having no episodes', () => {
    expect(parseEpisodes('', SRC)).toEqual([]);
    expect(parseEpisodes('# Progress\n\n', SRC)).toEqual([]);
  });
});

describe('noteFingerprint', () => {
  it("is agentm's fingerprint of a body (DESIGN §12)", () => {
    expect(noteFingerprint('hello')).toBe('2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824');
    expect(noteFingerprint('  Hello \r\n\r\n')).toBe(noteFingerprint('hello'));
  });
});

describe("the harness's bookkeeping is not an episode", () => {
  const at = (s: number) => new Date(Date.UTC(2026, 4, 1, 12, 0, s));
  const obs = (kind: ObservationKind, text: string, s: number, data: Record<string, string | number> = {}) =>
    formatObservation(makeObservation({ kind, step: 'build', attempt: 0, actor: '42@box', text, data, time: at(s) }));

  it('leaves out transitions (claims, results, releases, plan status) and results that say nothing but their status', () => {
    const progress = [
      '# Progress',
      '',
      obs('transition', 'ready → running', 1, { from: 'ready', to: 'running' }),
      obs(
        'tool_result',
        'step "build" completed (1 tool call(s)): $ pnpm build\nexit 0 after 2.0 s\nbuilt 3 packages',
        2,
        {
          tool: 'shell',
        },
      ),
      obs('transition', 'running → done', 3, { from: 'running', to: 'done' }),
      obs('tool_result', 'step "build" completed (0 tool call(s))', 4),
      obs('error', 'step "build" dispatch failed', 5),
      obs('error', 'step "build" dispatch failed: $ false\nexit 1 after 0.0 s', 6),
      obs('error', 'claimant 7@gone of step "build" is gone (its process ended mid-step); retrying as attempt 1', 7, {
        reason: 'claimant_gone',
      }),
      obs('transition', 'running → failed', 8, { from: 'running', to: 'failed' }),
      obs('transition', 'failed → ready', 9, { from: 'failed', to: 'ready' }),
      obs('note', 'the cache dir is shared between workers', 10),
      obs('decision', 'step s1: route (agent builder fits (1.00 >= route 0.82))', 11, { choice: 'route' }),
      obs('note', 'step "build" is blocked', 12),
      obs('transition', 'plan open → failed: one or more steps failed or are permanently blocked', 13, {
        from: 'open',
        to: 'failed',
      }),
      '- 2026-05-01 12:00 a person wrote: ready → running is what the log says',
      '',
    ].join('');
    // What stays reads as a person would write it: the step and what happened, no `[kind:: …]` fields.
    // A claim released because its claimant is gone is bookkeeping too.
    const texts = parseEpisodes(progress, SRC).map((e) => e.text.split('\n')[0]!);
    expect(texts).toEqual([
      'build done: $ pnpm build',
      'build failed: $ false',
      'build: the cache dir is shared between workers',
      'build: step s1: route (agent builder fits (1.00 >= route 0.82))',
      'a person wrote: ready → running is what the log says',
    ]);
    expect(parseEpisodes(progress, SRC).map((e) => e.title)).toEqual(texts);
  });
});

describe('a log that mixes every form of bookkeeping (today’s, an older AgentM’s, agentm’s, by hand)', () => {
  it('keeps only the memories, each titled by its step and what happened', () => {
    const eps = parseEpisodes(MIXED_PROGRESS_LOG, SRC);
    expect(eps.map((e) => e.title)).toEqual(MIXED_PROGRESS_MEMORIES);
    for (const e of eps) expect(`${e.title}\n${e.text}`).not.toMatch(BOOKKEEPING_TEXT);
  });
});

import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../../test/helpers/temp.js';
import { colorEnabled, TermStream } from '../../src/cli/ui/terminal.js';
import { LineSplitter, MAX_PARTIAL_LINE } from '../../src/cli/ui/line-splitter.js';
import { fitSegments } from '../../src/cli/ui/live-region.js';
import { bar, progressLine } from '../../src/cli/ui/progress-bar.js';
import { shellWord } from '../../src/cli/shell-quote.js';
import { findProgram, preflightPlan } from '../../src/harness/executors/preflight.js';
import { explainFailure } from '../../src/harness/trace/failures.js';
import { parsePlan } from '../../src/harness/plan/plan-document.js';
import { makeObservation } from '../../src/harness/observations/observation.js';
import { wrapText } from '../../src/harness/trace/render.js';

describe('colour follows no-color.org and FORCE_COLOR', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ TERM: 'dumb' }, true, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, true, false],
  ])('%j on a terminal=%s → %s', (env, tty, expected) => {
    expect(colorEnabled(env, tty)).toBe(expected);
  });

  it('styles only what it composed: escape sequences in the text are made visible first', () => {
    const written: string[] = [];
    const stream = new TermStream({
      raw: (t) => written.push(t),
      clean: (t) => t.replace(/\x1b/g, '\\x1b'),
      tty: true,
      color: true,
    });
    stream.line(['red', 'bad\x1b]0;x\x07'], ' plain \x1b[2J');
    expect(written.join('')).toBe('\x1b[31mbad\\x1b]0;x\x07\x1b[39m plain \\x1b[2J\n');
    const piped = new TermStream({ raw: (t) => written.push(t), clean: (t) => t, tty: false, color: false });
    written.length = 0;
    piped.control('\x1b[2K');
    piped.line(['green', 'ok']);
    expect(written).toEqual(['ok\n']);
  });
});

describe('output lines are cut whole, for redaction', () => {
  it('joins chunks into lines, CRLF split across chunks once, CR as a line end, and flushes the rest', () => {
    const s = new LineSplitter();
    expect(s.push('he')).toEqual([]);
    expect(s.push('llo sk-12\r')).toEqual(['hello sk-12']);
    expect(s.push('\nworld\r\nprogress 1\rprogress 2\nta')).toEqual(['world', 'progress 1', 'progress 2']);
    expect(s.flush()).toEqual(['ta']);
    expect(s.flush()).toEqual([]);
  });

  it('lets out a partial line that grows past the limit', () => {
    const s = new LineSplitter();
    expect(s.push('x'.repeat(MAX_PARTIAL_LINE + 1))).toEqual(['x'.repeat(MAX_PARTIAL_LINE + 1)]);
  });
});

describe('live lines never wrap', () => {
  it.each([
    [['abc', ['bold', 'def']] as const, 4, ['abc', ['bold', 'd']]],
    [['a\tb\nc'], 10, ['a b c']],
    [['éé', 'zz'], 3, ['éé', 'z']],
  ])('%j fitted to %i', (segments, width, expected) => {
    expect(fitSegments([...segments], width)).toEqual(expected);
  });
});

describe('progress lines', () => {
  it('shows the bar, the counts, the rate and, once the total is known, the ETA', () => {
    expect(bar(0.5, 10)).toBe('█████░░░░░');
    const text = (segments: ReturnType<typeof progressLine>) =>
      segments.map((s) => (typeof s === 'string' ? s : s[1])).join('');
    expect(text(progressLine('reindex', { phase: 'reading', done: 50, total: 200, unit: 'files' }, 1000))).toBe(
      `reindex reading ${bar(0.25)} 50/200 files · 50/s · ETA 3 s`,
    );
    expect(text(progressLine('reindex', { phase: 'reading', done: 50, total: 60, totalKnown: false }, 1000))).toBe(
      `reindex reading ${bar(50 / 60)} 50/60+ · 50/s`,
    );
    expect(text(progressLine('reindex', { phase: 'saving', done: 9, total: 9, counted: false }, 1000))).toBe(
      'reindex saving…',
    );
  });
});

describe('trace wraps, never cuts', () => {
  it.each([
    ['a b c', 3, ['a b', 'c']],
    ['abcdefgh', 3, ['abc', 'def', 'gh']],
    ['', 5, ['']],
  ])('%j at %i', (text, width, lines) => {
    expect(wrapText(text, width)).toEqual(lines);
  });
});

describe('the pre-flight', () => {
  it('finds programs on the PATH the command gets, and paths relative to the repository', async () => {
    const root = await tempDir();
    await mkdir(join(root, 'bin'));
    await writeFile(join(root, 'bin', 'tool'), '#!/bin/sh\n');
    await chmod(join(root, 'bin', 'tool'), 0o755);
    await writeFile(join(root, 'plain'), '');
    const env = { PATH: join(root, 'bin') };
    expect(findProgram('tool', { cwd: root, env })).toEqual({ path: join(root, 'bin', 'tool') });
    expect(findProgram('./bin/tool', { cwd: root, env })).toEqual({ path: join(root, 'bin', 'tool') });
    expect(findProgram('sh', { cwd: root, env: {} })).toHaveProperty('path'); // no PATH: the system default
    expect(findProgram('nope', { cwd: root, env })).toEqual({
      problem: 'program "nope" is not on the PATH the command gets (install it, or name it by its path)',
    });
    expect(findProgram('./plain', { cwd: root, env })).toEqual({
      problem: `./plain is not executable (chmod +x ${join(root, 'plain')})`,
    });
  });

  it('checks only steps that will be dispatched: not done, failed, cancelled or behind a failed step; groups need nothing', () => {
    const doc = parsePlan(
      [
        '- [x] done [id:: a] [cmd:: gone-tool]',
        '- [!] failed [id:: b] [cmd:: gone-tool]',
        '- [ ] behind b [id:: c] [after:: b] [cmd:: gone-tool]',
        '- [ ] group [id:: g]',
        '  - [ ] child [id:: g1] [cmd:: gone-tool]',
        '- [ ] model [id:: m]',
        "- [ ] broken [id:: q] [cmd:: sh -c 'open]",
        '',
      ].join('\n'),
    );
    const problems = preflightPlan(doc, { projectRoot: '/', env: { PATH: '/nowhere' }, hasModel: false });
    expect(problems.map((p) => p.step)).toEqual(['g1', 'm', 'q']);
    expect(
      preflightPlan(doc, { projectRoot: '/', env: { PATH: '/nowhere' }, hasModel: true }).map((p) => p.step),
    ).toEqual(['g1', 'q']);
  });
});

describe('why a plan failed', () => {
  it('takes each failed step’s last error of its attempt, the budget reason, and what waits behind', () => {
    const doc = parsePlan(
      '---\nstatus: failed\n---\n- [!] a [id:: a] [attempt:: 1]\n- [ ] b [id:: b] [after:: a]\n- [!] c [id:: c]\n',
    );
    const obs = (step: string, attempt: number, kind: 'error' | 'transition', text: string, to?: string) =>
      makeObservation({ kind, step, attempt, actor: 't', text, ...(to ? { data: { to } } : {}) });
    const failure = explainFailure(
      doc,
      [
        obs('a', 0, 'error', 'step "a" dispatch failed: old reason'),
        obs('a', 1, 'error', 'step "a" dispatch failed: $ make\nexit 2 after 0.1 s'),
        obs('plan:p', 0, 'transition', 'plan open → failed: budget exceeded: steps', 'failed'),
      ],
      'plan:p',
    );
    expect(failure).toEqual({
      steps: [
        { id: 'a', title: 'a', attempt: 1, reason: '$ make\nexit 2 after 0.1 s' },
        { id: 'c', title: 'c', attempt: 0, reason: 'no reason was logged (see agentm trace)' },
      ],
      waiting: ['b'],
      planReason: 'budget exceeded: steps',
    });
  });

  it('quotes a step id or plan name a shell would misread', () => {
    expect([shellWord('build'), shellWord('my plan'), shellWord("it's")]).toEqual(['build', "'my plan'", "'it'\\''s'"]);
  });
});

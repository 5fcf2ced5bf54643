import { describe, expect, it } from 'vitest';
import { parsePlan, serializePlan } from '../../src/harness/plan/plan-document.js';
import { effectiveStatus, withPlanStatus } from '../../src/harness/plan/plan-edit.js';
import { slugifyTitle } from '../../src/harness/plan/step-ids.js';

const PLAN = [
  '---',
  'goal: Ship the parser',
  'status: open',
  'depends_on: [infra]',
  'touches: ["src/**"]',
  'budget: {steps: 5}',
  '---',
  '# Build',
  '- [ ] Write the lexer [id:: lex]',
  '- [x] Write tests [after:: lex]',
  '  - [/] unit tests [agent:: 12@box] [started:: 2026-01-01T00:00:00.000Z]',
  '  - [!] property tests [attempt:: 2]',
  '## Release',
  '* [?] Publish [cmd:: npm publish] [key:: abc]',
  '1. [-] Announce [role:: operator]',
  '- [>] Forwarded',
  '- plain bullet',
  '',
].join('\n');

describe('parsing a PLAN file', () => {
  const doc = parsePlan(PLAN);

  it('reads the frontmatter fields', () => {
    expect(doc.meta).toEqual({
      goal: 'Ship the parser',
      status: 'open',
      dependsOn: ['infra'],
      touches: ['src/**'],
      budget: { steps: 5 },
    });
  });

  it('makes every checklist item a step with its status symbol, title, heading and fields', () => {
    expect(doc.steps.map((s) => [s.id, s.stored, s.title, s.headings.join('/')])).toEqual([
      ['lex', 'pending', 'Write the lexer', 'Build'],
      ['write-tests', 'done', 'Write tests', 'Build'],
      ['unit-tests', 'running', 'unit tests', 'Build'],
      ['property-tests', 'failed', 'property tests', 'Build'],
      ['publish', 'blocked', 'Publish', 'Build/Release'],
      ['announce', 'cancelled', 'Announce', 'Build/Release'],
      ['forwarded', 'unknown', 'Forwarded', 'Build/Release'],
    ]);
    const publish = doc.steps.find((s) => s.id === 'publish')!;
    expect([publish.cmd, publish.key]).toEqual(['npm publish', 'abc']);
    expect(doc.steps.find((s) => s.id === 'announce')!.role).toBe('operator');
    expect(doc.steps.find((s) => s.id === 'property-tests')!.attempt).toBe(2);
    expect(doc.steps.find((s) => s.id === 'unit-tests')!.agent).toBe('12@box');
  });

  it('nests sub-steps: the parent waits for them and they inherit its after', () => {
    const parent = doc.steps.find((s) => s.id === 'write-tests')!;
    expect(parent.children).toEqual(['unit-tests', 'property-tests']);
    expect(parent.deps).toEqual(['lex', 'unit-tests', 'property-tests']);
    expect(doc.steps.find((s) => s.id === 'unit-tests')!).toMatchObject({ parent: 'write-tests', deps: ['lex'] });
  });

  it('reports an unknown symbol as a warning, never as an error', () => {
    expect(doc.problems).toEqual([
      { severity: 'warning', message: 'step "forwarded": unknown status symbol [>] (use [ ] [/] [x] [!] [?] [-])' },
    ]);
  });

  it('derives ready: a pending step whose dependencies are all done', () => {
    const d = parsePlan('- [x] a [id:: a]\n- [ ] b [after:: a]\n- [ ] c [after:: b]\n- [ ] d [after:: ghost]\n');
    expect(d.steps.map((s) => effectiveStatus(d, s))).toEqual(['done', 'ready', 'pending', 'pending']);
  });

  it('a new step lands in pending: a hand-written [/] that no one claimed ([agent:: …]) is not taken as running', () => {
    const d = parsePlan(
      '- [x] a [id:: a]\n- [/] b [id:: b] [after:: a]\n- [/] c [id:: c] [after:: b]\n- [/] d [id:: d] [agent:: 7@box]\n',
    );
    expect(d.steps.map((s) => [s.id, s.symbol, s.stored, effectiveStatus(d, s)])).toEqual([
      ['a', 'x', 'done', 'done'],
      ['b', '/', 'pending', 'ready'],
      ['c', '/', 'pending', 'pending'],
      ['d', '/', 'running', 'running'],
    ]);
    expect(d.problems).toEqual([
      {
        severity: 'warning',
        message:
          'step "b" is marked [/] but no one claimed it (no [agent:: …]): read as pending until agentm run or update_step starts it',
      },
      {
        severity: 'warning',
        message:
          'step "c" is marked [/] but no one claimed it (no [agent:: …]): read as pending until agentm run or update_step starts it',
      },
    ]);
    expect(serializePlan(d)).toBe(d.text); // the file is read, never rewritten
  });

  it('ignores checklist look-alikes in fenced and indented code, and items without a space after the box', () => {
    const d = parsePlan(
      'Text\n\n    - [ ] indented code\n\n```md\n- [ ] fenced\n```\n~~~\n- [x] tilde\n~~~\n-[ ] no space\n- [ ]no space after\n- [ ] real\n',
    );
    expect(d.steps.map((s) => s.title)).toEqual(['real']);
  });

  it('keeps sub-steps indented four or more columns under a list as steps (not code)', () => {
    const d = parsePlan('- [ ] parent\n    - [ ] child\n\t- [ ] tab child\n');
    expect(d.steps.map((s) => [s.id, s.parent ?? null])).toEqual([
      ['parent', null],
      ['child', 'parent'],
      ['tab-child', 'parent'],
    ]);
  });

  it('collects the indented notes under a step as its details', () => {
    const d = parsePlan('- [ ] Step one\n  Goal: find the API\n  more words\n  - [ ] sub\n- [ ] Two\n');
    expect(d.steps[0]!.details).toBe('Goal: find the API\nmore words');
    expect(d.steps[2]!.details).toBe('');
  });

  it('derives ids from titles: stable, unique, any script, never colliding with explicit ids', () => {
    const d = parsePlan('- [ ] Test\n- [ ] Test\n- [ ] Other [id:: test-3]\n- [ ] Test\n- [ ] Café ναί!\n- [ ] ???\n');
    expect(d.steps.map((s) => s.id)).toEqual(['test', 'test-2', 'test-3', 'test-4', 'café-ναί', 'step']);
    expect(parsePlan('- [ ] Test\n- [ ] Test\n').steps.map((s) => s.id)).toEqual(['test', 'test-2']);
  });

  it.each([
    ['Write the Lexer', 'write-the-lexer'],
    ['  --Hello,   World!--  ', 'hello-world'],
    ['日本語のテスト', '日本語のテスト'],
    ['a'.repeat(60), 'a'.repeat(48)],
    ['', 'step'],
  ])('slugifies %j as %j', (title, slug) => {
    expect(slugifyTitle(title)).toBe(slug);
  });

  it('reports duplicate explicit ids and dependency cycles as errors (the reconciler refuses them)', () => {
    const dup = parsePlan('- [ ] a [id:: x]\n- [ ] b [id:: x]\n');
    expect(dup.problems).toEqual([{ severity: 'error', message: 'duplicate step id "x" (lines 1 and 2)' }]);
    const cycle = parsePlan('- [ ] a [id:: a] [after:: b]\n- [ ] b [id:: b] [after:: a]\n');
    expect(cycle.problems.filter((p) => p.severity === 'error').map((p) => p.message)).toEqual([
      'dependency cycle through step "a"',
    ]);
    expect(parsePlan('- [ ] a [after:: nope]\n').problems).toEqual([
      { severity: 'warning', message: 'step "a" comes after unknown step "nope" (it can never run)' },
    ]);
  });

  it('reads bad YAML frontmatter as empty and says why', () => {
    const d = parsePlan('---\ngoal: [unclosed\n---\n- [ ] a\n');
    expect(d.meta.goal).toBeUndefined();
    expect(d.problems[0]!.message).toMatch(/^the frontmatter is not valid YAML/);
    expect(d.steps).toHaveLength(1);
  });

  it('a free-form file with no checklist has no steps and serializes unchanged', () => {
    const text = '# Notes\r\nJust prose, café.\rAnd a lone CR.';
    const d = parsePlan(text);
    expect(d.steps).toEqual([]);
    expect(serializePlan(d)).toBe(text);
  });
});

describe('setting the plan status', () => {
  it.each([
    ['---\ngoal: g\nstatus: open\n---\n- [ ] a\n', '---\ngoal: g\nstatus: done\n---\n- [ ] a\n'],
    ['---\r\ngoal: g\r\n---\r\n- [ ] a\r\n', '---\r\ngoal: g\r\nstatus: done\r\n---\r\n- [ ] a\r\n'],
    ['- [ ] a\n', '---\nstatus: done\n---\n- [ ] a\n'],
    ['\uFEFF# T\r\n', '\uFEFF---\r\nstatus: done\r\n---\r\n# T\r\n'],
    ['---\n---\nbody', '---\nstatus: done\n---\nbody'],
  ])('rewrites or adds only the status line in %j', (before, after) => {
    const next = withPlanStatus(parsePlan(before), 'done');
    expect(next.text).toBe(after);
    expect(next.meta.status).toBe('done');
  });
});

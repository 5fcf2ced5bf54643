import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePlan, serializePlan } from '../../src/harness/plan/plan-document.js';
import { effectiveStatus, transitionStep } from '../../src/harness/plan/plan-edit.js';
import { renderPlan } from '../../src/harness/planner/plan-render.js';

/** The status each step is in now (ready derived), by id. */
function statuses(text: string): Record<string, string> {
  const doc = parsePlan(text);
  return Object.fromEntries(doc.steps.map((s) => [s.id, effectiveStatus(doc, s)]));
}

describe("the Tasks plugin's dependsOn:: (its Dataview task format) read as after::", () => {
  it('a step waits for the steps its [dependsOn:: …] names, as it waits for [after:: …]', () => {
    const plan = [
      '- [x] Build [id:: build]',
      '- [ ] Lint [id:: lint]',
      '- [ ] Ship  [dependsOn:: build,lint]  [id:: ship]',
      '- [ ] Tag [dependsOn:: build]',
      '',
    ].join('\n');
    expect(statuses(plan)).toEqual({ build: 'done', lint: 'ready', ship: 'pending', tag: 'ready' });
    expect(parsePlan(plan).steps.find((s) => s.id === 'ship')!.after).toEqual(['build', 'lint']);
    expect(statuses(plan.replace('- [ ] Lint', '- [x] Lint'))).toMatchObject({ ship: 'ready' });
  });

  it('reads the key case-insensitively (as Dataview does), joins it with after:: and drops repeats', () => {
    const doc = parsePlan('- [ ] a [id:: a]\n- [ ] b [id:: b]\n- [ ] c [after:: a] [DependsOn:: b, a]\n');
    expect(doc.steps[2]!.after).toEqual(['a', 'b']);
    expect(doc.steps[2]!.title).toBe('c');
  });

  it('sub-steps inherit a parent dependsOn:: like a parent after::, and a cycle through it is an error', () => {
    const nested = parsePlan('- [ ] setup [id:: setup]\n- [ ] deploy [dependsOn:: setup]\n  - [ ] push\n');
    expect(nested.steps.find((s) => s.id === 'push')!.deps).toEqual(['setup']);
    const cycle = parsePlan('- [ ] a [id:: a] [dependsOn:: b]\n- [ ] b [id:: b] [after:: a]\n');
    expect(cycle.problems.map((p) => p.severity)).toContain('error');
  });

  it('a dependsOn:: naming no step is the same warning as an after:: naming none', () => {
    const doc = parsePlan('- [ ] a [dependsOn:: ghost]\n');
    expect(doc.problems).toEqual([
      { severity: 'warning', message: 'step "a" comes after unknown step "ghost" (it can never run)' },
    ]);
  });

  it("does not read Tasks' emoji forms (⛔ id, 🆔 id): they stay title text and gate nothing", () => {
    const doc = parsePlan('- [ ] build 🆔 b1\n- [ ] ship ⛔ b1\n');
    expect(doc.steps.map((s) => [s.id, s.title, s.after])).toEqual([
      ['build-b1', 'build 🆔 b1', []],
      ['ship-b1', 'ship ⛔ b1', []],
    ]);
    expect(doc.problems).toEqual([]);
  });

  it('a transition rewrites only its own line and keeps dependsOn:: as written (nothing is turned into after::)', () => {
    const text = '# Plan\r\n- [x] Build [id:: build]\r\n- [ ] Ship [dependsOn:: build] [id:: ship]\r\n- [ ] Tail\n';
    const { doc } = transitionStep(parsePlan(text), { step: 'ship', to: 'running', fields: { agent: '7@box' } });
    const before = text.split('\n');
    const after = doc.text.split('\n');
    expect(after.filter((line, i) => line !== before[i])).toEqual([
      '- [/] Ship [dependsOn:: build] [id:: ship] [agent:: 7@box]\r',
    ]);
    expect(doc.steps.find((s) => s.id === 'ship')!.after).toEqual(['build']);
  });

  it('a plan using dependsOn:: round-trips byte for byte (property)', () => {
    const id = fc.stringMatching(/^[a-zA-Z0-9_-]{1,8}$/);
    const line = fc.record({
      symbol: fc.constantFrom(' ', 'x', '/', '!', '?', '-'),
      title: fc.stringMatching(/^[a-z ]{1,12}$/),
      deps: fc.array(id, { maxLength: 3 }),
      sep: fc.constantFrom(',', ', ', ' , '),
      key: fc.constantFrom('dependsOn', 'dependson', 'DependsOn', 'after'),
      eol: fc.constantFrom('\n', '\r\n'),
    });
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const text = lines.map((l) => `- [${l.symbol}] ${l.title} [${l.key}:: ${l.deps.join(l.sep)}]${l.eol}`).join('');
        expect(serializePlan(parsePlan(text))).toBe(text);
      }),
    );
  });

  it('a title a model or a goal wrote cannot become a dependsOn:: field (its "::" is neutralized)', () => {
    const step = { goal: '', role: 'coder', roleHint: 'coder', stepKey: 'k' };
    const text = renderPlan(
      'g',
      [
        { ...step, key: 'a', id: 'a', title: 'first [dependsOn:: b]', dependsOn: [] },
        { ...step, key: 'b', id: 'b', title: 'second', dependsOn: [] },
      ],
      new Date(0),
    );
    const doc = parsePlan(text);
    expect(doc.steps.find((s) => s.id === 'a')!.after).toEqual([]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLines } from '../../src/harness/plan/lines.js';
import { parsePlan, serializePlan } from '../../src/harness/plan/plan-document.js';
import { effectiveStatus, transitionStep } from '../../src/harness/plan/plan-edit.js';

const eol = fc.constantFrom('\n', '\r\n', '\r');
const words = fc.constantFrom(
  'Build',
  'the parser',
  'café',
  'ναί',
  '日本語',
  '🦗 emoji',
  'a\tb',
  'x',
  '[[link]]',
  '`code`',
  '—',
  '#tag',
  'ümlaut',
);
const inlineText = fc.array(words, { minLength: 0, maxLength: 4 }).map((w) => w.join(' '));
const indent = fc.constantFrom('', ' ', '  ', '   ', '    ', '\t', '\t\t', '  \t', '      ');
const symbol = fc.constantFrom(' ', 'x', 'X', '/', '!', '?', '-', '>', 'é');
const field = fc
  .tuple(
    fc.constantFrom('id', 'after', 'agent', 'attempt', 'cmd', 'key', 'role', 'Other Key'),
    fc.constantFrom('a', 'b, c', '1', 'echo hi', ' spaced ', ''),
  )
  .map(([k, v]) => `[${k}::${v}]`);
const bullet = fc.constantFrom('-', '*', '+', '1.', '2)');
const task = fc
  .tuple(indent, bullet, symbol, inlineText, fc.array(field, { maxLength: 3 }), fc.constantFrom('', ' ', '\t'))
  .map(([i, b, s, t, f, trail]) => `${i}${b} [${s}] ${[t, ...f].join(' ')}${trail}`);
const plainLine = fc.oneof(
  inlineText,
  fc.tuple(fc.constantFrom('#', '##', '###', '####'), inlineText).map(([h, t]) => `${h} ${t}`),
  fc.tuple(indent, bullet, inlineText).map(([i, b, t]) => `${i}${b} ${t}`),
  fc.constant(''),
  fc.constant('---'),
  fc.constant('- [ ]'),
  fc.constant('-[ ] not a task'),
  fc.string({ maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, '')),
);
const fenced = fc
  .tuple(fc.constantFrom('```', '~~~', '````'), fc.array(fc.oneof(task, plainLine), { maxLength: 4 }))
  .map(([f, body]) => [`${f}md`, ...body, f]);
const frontmatter = fc.option(
  fc.constantFrom(
    ['---', 'goal: Ship it', 'status: open', 'depends_on: [a, b]', '---'],
    ['---', 'budget: {steps: 3}', '...'],
    ['---', 'bad: [yaml', '---'],
    ['---', '---'],
  ),
  { nil: undefined },
);
const markdown = fc
  .tuple(
    frontmatter,
    fc.array(
      fc.oneof(
        task.map((t) => [t]),
        plainLine.map((l) => [l]),
        fenced,
      ),
      { maxLength: 25 },
    ),
    fc.array(eol, { minLength: 40, maxLength: 40 }),
    fc.boolean(),
  )
  .map(([front, blocks, eols, finalEol]) => {
    const lines = [...(front ?? []), ...blocks.flat()];
    return lines.map((l, i) => l + (i < lines.length - 1 || finalEol ? eols[i % eols.length] : '')).join('');
  });

describe('PLAN files parse and serialize byte for byte', () => {
  it('parse then serialize returns the exact input for generated Markdown (CRLF, lone CR, non-ASCII, tabs, fences, frontmatter)', () => {
    fc.assert(
      fc.property(markdown, (text) => {
        expect(serializePlan(parsePlan(text))).toBe(text);
      }),
      { numRuns: 600 },
    );
  });

  it('parse then serialize returns the exact input for arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        expect(serializePlan(parsePlan(text))).toBe(text);
      }),
      { numRuns: 400 },
    );
  });

  it('checklist items inside fenced code blocks are never steps', () => {
    const body = fc.array(fc.constantFrom('- [ ] fenced-item', '  - [x] fenced-item', 'text'), { maxLength: 4 });
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            task.map((t) => [t]),
            body.map((b) => ['```', ...b, '```']),
          ),
          { maxLength: 10 },
        ),
        eol,
        (blocks, e) => {
          const doc = parsePlan(blocks.flat().join(e));
          expect(doc.steps.some((s) => s.title.includes('fenced-item'))).toBe(false);
        },
      ),
    );
  });

  it('a transition rewrites only its own line and keeps every other byte', () => {
    fc.assert(
      fc.property(markdown, fc.nat(), (text, pick) => {
        const doc = parsePlan(text);
        const movable = doc.steps.filter((s) => {
          const status = effectiveStatus(doc, s);
          return (
            status !== 'done' &&
            status !== 'cancelled' &&
            status !== 'unknown' &&
            doc.steps.filter((o) => o.id === s.id).length === 1
          );
        });
        if (movable.length === 0) return;
        const step = movable[pick % movable.length]!;
        const { doc: next } = transitionStep(doc, { step: step.id, to: 'cancelled', fields: { agent: '42@host' } });
        const before = splitLines(text);
        const after = splitLines(serializePlan(next));
        expect(after.length).toBe(before.length);
        for (let i = 0; i < before.length; i++) {
          if (i === step.line) {
            expect(after[i]!.eol).toBe(before[i]!.eol);
            expect(after[i]!.text.startsWith(before[i]!.text.slice(0, step.symbolOffset))).toBe(true);
          } else expect(after[i]).toEqual(before[i]);
        }
        const moved = next.steps.find((s) => s.line === step.line)!;
        expect(moved.stored).toBe('cancelled');
        expect(moved.id).toBe(step.id);
        expect(moved.title).toBe(step.title);
        expect(moved.agent).toBe('42@host');
      }),
      { numRuns: 400 },
    );
  });
});

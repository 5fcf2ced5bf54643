import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeObservation, OBSERVATION_KINDS, type Observation } from '../../src/harness/observations/observation.js';
import {
  appendObservations,
  formatObservation,
  parseProgress,
} from '../../src/harness/observations/progress-format.js';

const sample = makeObservation({
  kind: 'tool_result',
  step: 'build',
  attempt: 2,
  actor: '4242@box',
  text: 'step "build" completed\nexit 0\n\n  indented tail',
  data: { tool: 'shell', tool_calls: 1, tokens: 0, exit_code: 0 },
  time: '2026-05-01T12:00:00.123Z',
});

describe('observations in the progress file', () => {
  it('are one top-level list item starting with the timestamp, fields in Dataview form, text after a dash', () => {
    expect(formatObservation(sample)).toBe(
      '- 2026-05-01T12:00:00.123Z [kind:: tool_result] [step:: build] [attempt:: 2] [actor:: 4242@box] [tool:: shell] [tool_calls:: 1] [tokens:: 0] [exit_code:: 0] — step "build" completed\n' +
        '  exit 0\n\n    indented tail\n',
    );
  });

  it('quote values that would be misread (numbers as text, brackets, line breaks, outer spaces)', () => {
    const o = makeObservation({
      kind: 'note',
      step: '42',
      actor: 'a]b',
      text: '',
      data: { v: ' x ', w: 'line\nbreak', z: '' },
      time: '2026-05-01T12:00:00.000Z',
    });
    expect(formatObservation(o)).toBe(
      '- 2026-05-01T12:00:00.000Z [kind:: note] [step:: "42"] [attempt:: 0] [actor:: "a\\u005db"] [v:: " x "] [w:: "line\\nbreak"] [z:: ""]\n',
    );
    expect(parseProgress(formatObservation(o))).toEqual([o]);
  });

  const text = fc
    .array(
      fc.oneof(
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.constantFrom('', '  spaced', '- [ ] fake', '- 2026-01-01T00:00:00Z [kind:: note]', '\t', '```'),
      ),
      { maxLength: 5 },
    )
    .map((lines) => lines.join('\n'));
  const value = fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom('1', '-2.5', ']', '[x:: y]', ' pad'),
  );
  const observation = fc
    .record({
      time: fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
      kind: fc.constantFrom(...OBSERVATION_KINDS),
      step: fc.oneof(
        fc.string({ unit: 'grapheme', minLength: 0, maxLength: 12 }),
        fc.constantFrom('plan:PLAN', 'a-b', '12'),
      ),
      attempt: fc.nat(50),
      actor: fc.string({ unit: 'grapheme', maxLength: 12 }),
      text,
      data: fc.dictionary(
        fc.stringMatching(/^[a-z0-9_]{1,8}$/).filter((k) => !['kind', 'step', 'attempt', 'actor'].includes(k)),
        value,
        { maxKeys: 4 },
      ),
    })
    .map((r) => makeObservation(r));

  it('parse back exactly what was written, whatever the text and values (property)', () => {
    fc.assert(
      fc.property(fc.array(observation, { maxLength: 6 }), fc.constantFrom('\n', '\r\n'), (obs, eol) => {
        const file = appendObservations(`# Progress${eol}${eol}Some human notes.${eol}`, obs);
        const parsed = parseProgress(file);
        expect(parsed).toEqual(obs.map((o) => ({ ...o, data: { ...o.data } })));
      }),
      { numRuns: 300 },
    );
  });

  it('appending keeps every existing byte and the file’s line endings, and survives human entries', () => {
    const human =
      '# Progress\r\n\r\n- 2026-04-01 did some things by hand\r\n  with details\r\n\r\n## Notes\r\nfree text';
    const once = appendObservations(human, [sample]);
    expect(once.startsWith(`${human}\r\n`)).toBe(true);
    expect(once.endsWith('  exit 0\r\n\r\n    indented tail\r\n')).toBe(true);
    const twice = appendObservations(once, [{ ...sample, step: 'next' }]);
    expect(twice.startsWith(once)).toBe(true);
    expect(parseProgress(twice).map((o) => o.step)).toEqual(['build', 'next']);
  });

  it('ignores look-alikes: nested items, code blocks, malformed heads', () => {
    const line = formatObservation(sample).split('\n')[0]!;
    const file = [
      `  ${line}`,
      '```',
      line,
      '```',
      line.replace('[kind:: tool_result]', '[kind:: bogus]'),
      line.replace(' — ', ' ~ '),
      '- 2026-05-01 [kind:: note] [step:: a] [attempt:: 0] [actor:: x]',
      '',
    ].join('\n');
    expect(parseProgress(file)).toEqual([]);
  });

  it('a new progress file starts with a heading', () => {
    expect(
      appendObservations('', [sample], '# Progress: build').startsWith(
        '# Progress: build\n\n- 2026-05-01T12:00:00.123Z',
      ),
    ).toBe(true);
  });

  it('makeObservation normalizes text and refuses reserved data keys', () => {
    expect(makeObservation({ kind: 'note', step: 's', actor: 'a', text: '\r\n\r\nhello\r\nworld \n\n' }).text).toBe(
      'hello\nworld',
    );
    expect(() => makeObservation({ kind: 'note', step: 's', actor: 'a', text: '', data: { kind: 'x' } })).toThrow(
      TypeError,
    );
    expect(() => makeObservation({ kind: 'note', step: 's', actor: 'a', text: '', data: { 'Bad Key': 1 } })).toThrow(
      TypeError,
    );
  });

  it('round-trips kinds, attempt and time of each entry (table)', () => {
    const entries: Observation[] = OBSERVATION_KINDS.map((kind, i) =>
      makeObservation({
        kind,
        step: `s${i}`,
        attempt: i,
        actor: 'me',
        text: `t${i}`,
        time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
      }),
    );
    expect(parseProgress(appendObservations('', entries))).toEqual(entries);
  });
});

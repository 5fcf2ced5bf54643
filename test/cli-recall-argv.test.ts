// A plain `agentm recall` is read without the command table (cli/recall-argv.ts): Node's parser reads
// the options commands/recall.ts declares to commander. Wherever the plain reading takes an argument list,
// commander must read it the same; whatever it leaves (help, mistakes) commander reads and reports.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../packages/core/src/cli/program.js';
import type { CliContext } from '../packages/core/src/cli/context.js';
import { recallArgv } from '../packages/core/src/cli/recall-argv.js';

const ctx = { io: { out: () => {}, err: () => {}, env: {} }, term: {}, exitCode: 0 } as unknown as CliContext;

/** How commander reads `agentm recall …args`: the text and options its action gets, or undefined (an error, help). */
async function commanderReading(args: readonly string[]): Promise<{ text: string; flags: object } | undefined> {
  const program = buildProgram(ctx, 'recall');
  let reading: { text: string; flags: object } | undefined;
  program.commands
    .find((c) => c.name() === 'recall')!
    .action((text: string, flags: object) => {
      reading = { text, flags: { ...flags } };
    });
  try {
    await program.parseAsync(['recall', ...args], { from: 'user' });
  } catch {
    return undefined;
  }
  return reading;
}

const TOKENS = [
  'flaky build',
  'cache',
  '',
  '-',
  '--',
  '--project',
  'demo',
  '--project=other',
  '--project=',
  '--all-projects',
  '-n',
  '5',
  '-n7',
  '--limit',
  '--limit=3',
  '--k',
  '2',
  '--kinds',
  'fix,convention',
  '--window',
  '7d',
  '--half-life',
  '1h',
  '--json',
  '--no-refresh',
  '--refresh',
  '--help',
  '-h',
  '--bogus',
  '-x',
  '--json=yes',
];

describe('agentm recall read without the command table', () => {
  it.each([
    [['flaky build']],
    [['flaky build', '--json']],
    [['--project', 'demo', 'flaky build']],
    [['cache', '-n', '5', '--all-projects']],
    [['cache', '-n7', '--no-refresh']],
    [['cache', '--limit=3', '--k', '3', '--kinds', 'fix,convention', '--window', '7d', '--half-life', '1h']],
    [['--', '-x']],
  ])('reads %j as commander does', async (args) => {
    const plain = recallArgv(args);
    expect(plain).toBeDefined();
    expect(plain).toEqual(await commanderReading(args));
  });

  it.each([[[]], [['a', 'b']], [['--help']], [['cache', '--bogus']], [['cache', '--project']], [['-x']]])(
    'leaves %j to commander',
    (args) => {
      expect(recallArgv(args)).toBeUndefined();
    },
  );

  it('never reads an argument list other than commander does', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...TOKENS), { maxLength: 7 }), async (args) => {
        const plain = recallArgv(args);
        if (plain !== undefined) expect(plain).toEqual(await commanderReading(args));
      }),
      { numRuns: 2000 },
    );
  });
});

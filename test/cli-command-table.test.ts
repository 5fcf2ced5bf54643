// `agentm <command>` registers only that command (program.ts: COMMAND_REGISTRATIONS): the table must name
// every top-level command the full program has, each with the registration that declares it, or a command
// would run without its options, or not at all.
import { describe, expect, it } from 'vitest';
import { buildProgram, COMMAND_REGISTRATIONS } from '../packages/core/src/cli/program.js';
import type { CliContext } from '../packages/core/src/cli/context.js';

const ctx = { io: { out: () => {}, err: () => {}, env: {} }, term: {}, exitCode: 0 } as unknown as CliContext;
type Command = ReturnType<typeof buildProgram>;
const names = (program: Command) => program.commands.map((c) => c.name());

describe('the command table', () => {
  it('names every command of the program but completion', () => {
    const all = names(buildProgram(ctx)).filter((n) => n !== 'completion' && n !== '__complete');
    expect(Object.keys(COMMAND_REGISTRATIONS).sort()).toEqual([...all].sort());
  });

  it.each(Object.keys(COMMAND_REGISTRATIONS))('builds %s from its own registration, with every option', (name) => {
    const full = buildProgram(ctx).commands.find((c) => c.name() === name)!;
    const alone = buildProgram(ctx, name).commands.find((c) => c.name() === name);
    expect(alone).toBeDefined();
    expect(alone!.options.map((o) => o.flags)).toEqual(full.options.map((o) => o.flags));
    expect(names(alone!)).toEqual(names(full));
  });

  it('builds every command for the help, a mistyped command or completion', () => {
    const all = names(buildProgram(ctx)).length;
    for (const argv0 of [undefined, '--help', 'recal', 'help', 'completion', '__complete'])
      expect(names(buildProgram(ctx, argv0)).length).toBe(all);
  });
});

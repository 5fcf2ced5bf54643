import type { Command } from 'commander';
import { parseCapabilityNames, VALID_CAPABILITY_NAMES } from '../../selection/capability-names.js';
import type { DoctorCheck } from '../../workspace/doctor/check.js';
import type { CliContext } from '../context.js';
import { EXIT_CHECK_FAILED, EXIT_OK } from '../errors.js';
import { cliWorkspaceOptions } from '../workspace-cli.js';

const STATUS_STYLE = { ok: 'green', warn: 'yellow', fail: 'red', info: 'cyan' } as const;

/** A check as the workspace words it, its `[OK]`/`[WARN]`/`[FAIL]`/`[HINT]` coloured on a terminal. */
function printCheck(ctx: CliContext, check: DoctorCheck, line: string): void {
  const m = /^(.*? )(\[[A-Z]+\])([\s\S]*)$/.exec(line);
  if (!m) ctx.term.out.line(line);
  else ctx.term.out.line(m[1]!, [STATUS_STYLE[check.status], m[2]!], m[3]!);
}

export function registerDoctor(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description('check the selected storage backend (and, with --roundtrip, write and read a probe note)')
    .option('--roundtrip', 'write a probe note under _meta/ and read it back through the backend')
    .option(
      '--requires <capabilities>',
      'fail unless the backend offers these capabilities (comma-separated, e.g. concurrent_writers,sync)',
    )
    .option('--fix', 'finish what crashed writers left (leftover temp files, half-done evolves), under the lock')
    .option('--providers', 'also send one small request to each configured chat and embeddings endpoint')
    .option('--json', 'print the checks as JSON')
    .action(
      async (opts: { roundtrip?: boolean; json?: boolean; requires?: string; fix?: boolean; providers?: boolean }) => {
        const parsed = opts.requires !== undefined ? parseCapabilityNames(opts.requires) : undefined;
        if (parsed && parsed.unknown.length) {
          ctx.io.err(
            `error: unknown capability name(s): ${parsed.unknown.join(', ')}. Valid names: ${VALID_CAPABILITY_NAMES.join(', ')}\n`,
          );
          ctx.exitCode = EXIT_CHECK_FAILED;
          return;
        }
        // The checks reach every layer (store, index, providers): loaded when doctor runs, not for --help.
        const { Workspace } = await import('../../workspace/workspace.js');
        const { doctorLine } = await import('../../workspace/doctor/check.js');
        const checks = await Workspace.doctor(cliWorkspaceOptions(ctx, { service: false }), {
          fix: opts.fix === true,
          roundtrip: opts.roundtrip === true,
          liveProviders: opts.providers === true,
          ...(parsed ? { requires: parsed.required } : {}),
        });
        const lines = checks.map(doctorLine);
        if (opts.json)
          ctx.io.out(
            `${JSON.stringify(
              checks.map((check, i) => ({ ...check, line: lines[i] })),
              null,
              2,
            )}\n`,
          );
        else checks.forEach((check, i) => printCheck(ctx, check, lines[i]!));
        ctx.exitCode = checks.some((c) => c.status === 'fail') ? EXIT_CHECK_FAILED : EXIT_OK;
      },
    );
}

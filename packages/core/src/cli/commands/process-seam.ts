import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_USAGE } from '../errors.js';
import { READ_WORKER_SCRIPT } from '../workspace-cli.js';
import { dirOption, hostOf, printJson, readInputFile } from '../support.js';

function positiveInt(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) <= 0)
    throw new CliError(`${flag} must be a positive whole number of tokens, got ${JSON.stringify(value)}`, EXIT_USAGE);
  return Number(value);
}

function confidence(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new CliError(`--confidence must be a number (e.g. 0.9), got ${JSON.stringify(value)}`, EXIT_USAGE);
  return n;
}

/** The process seam, loaded when one of its commands runs (it reaches the store and the index). */
const seam = () => import('../../process-seam/process.js');

/** The process seam's shell shim (seed 000): `recall-here`, `state-path`, `offer-save-here`. Exit 0 on every graceful no-op. */
export function registerProcessSeam(program: Command, ctx: CliContext): void {
  program
    .command('recall-here')
    .description(
      'print the budgeted recall Markdown for this project and phase (nothing when memory is absent); the index lives in the user cache dir',
    )
    .option('--cwd <dir>', 'the project root')
    .option('--phase <phase>', 'setup, plan, work, review, release, bugfix or documenter (unknown → work)')
    .option('--query <text>', 'rank the recalled memories for this text (default: by recency and the phase)')
    .option('--limit <tokens>', 'the recall budget in tokens (default: the phase budget)')
    .action(async (opts: { cwd?: string; phase?: string; query?: string; limit?: string }) => {
      const limit = positiveInt('--limit', opts.limit);
      const { recallHere } = await seam();
      const background = ctx.io.background;
      const text = await recallHere(
        {
          host: hostOf(ctx),
          cwd: dirOption(ctx, opts.cwd),
          indexWorkerScript: READ_WORKER_SCRIPT,
          ...(background !== undefined ? { revalidate: background } : {}),
          ...(opts.phase !== undefined ? { phase: opts.phase } : {}),
        },
        { query: opts.query, limit },
      );
      if (text !== '') ctx.io.out(text.endsWith('\n') ? text : `${text}\n`);
    });
  program
    .command('state-path <which>')
    .description('print the active plan or progress path (plan|progress)')
    .option('--cwd <dir>', 'the project root')
    .option('--plan <name>', 'a named plan (foo → PLAN-foo.md)')
    .action(async (which: string, opts: { cwd?: string; plan?: string }) => {
      const { statePath } = await seam();
      const path = await statePath(
        { host: hostOf(ctx), cwd: dirOption(ctx, opts.cwd), ...(opts.plan !== undefined ? { plan: opts.plan } : {}) },
        which as 'plan' | 'progress',
      );
      ctx.io.out(`${path}\n`);
    });
  program
    .command('offer-save-here')
    .description('print what could be saved here as a JSON array (never saves)')
    .requiredOption('--kind <kind>', 'the note kind')
    .requiredOption('--slug <slug>', 'the note slug')
    .option('--cwd <dir>', 'the project root')
    .option('--phase <phase>', 'the dev-loop phase, passed through')
    .option('--body-file <file>', 'the body (- = standard input)')
    .option('--confidence <x>', 'how sure the caller is (0..1)')
    .option('--confidence-reason <text>', 'why')
    .action(
      async (opts: {
        kind: string;
        slug: string;
        cwd?: string;
        phase?: string;
        bodyFile?: string;
        confidence?: string;
        confidenceReason?: string;
      }) => {
        const conf = confidence(opts.confidence);
        const candidate: Record<string, unknown> = { kind: opts.kind, slug: opts.slug };
        if (opts.bodyFile !== undefined) candidate['body'] = await readInputFile(ctx, opts.bodyFile, '--body-file');
        if (conf !== undefined) candidate['confidence'] = conf;
        if (opts.confidenceReason !== undefined) candidate['confidence_reason'] = opts.confidenceReason;
        const { offerSaveHere } = await seam();
        const offered = await offerSaveHere(
          {
            host: hostOf(ctx),
            cwd: dirOption(ctx, opts.cwd),
            ...(opts.phase !== undefined ? { phase: opts.phase } : {}),
          },
          candidate,
        );
        printJson(ctx, offered);
      },
    );
}

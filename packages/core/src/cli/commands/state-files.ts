import type { Command } from 'commander';
import type { ProjectResolution } from '../../routing/resolve-project.js';
import { basename } from 'node:path';
import type { CliContext } from '../context.js';
import { CliError, EXIT_USAGE } from '../errors.js';
import { planOption } from '../plan-option.js';
import { dirOption, printJson, readInputFile } from '../support.js';

import { cliWorkspace } from '../workspace-cli.js';

interface ProjectOpts {
  cwd?: string;
  projectRoot?: string;
}

/** The project of `--cwd` (or the run's cwd): a repository always resolves, with or without a slug. */
async function project(ctx: CliContext, opts: ProjectOpts): Promise<ProjectResolution> {
  const ws = await cliWorkspace(ctx, { projectRoot: dirOption(ctx, opts.cwd ?? opts.projectRoot) });
  return (await ws.project())!;
}

function parseExpect(value: string | undefined): { expectHash?: string | null } {
  if (value === undefined) return {};
  if (value === 'absent') return { expectHash: null };
  if (!/^[0-9a-f]{64}$/.test(value))
    throw new CliError(
      `--expect-hash must be a sha256 hex digest or "absent", got ${JSON.stringify(value)}`,
      EXIT_USAGE,
    );
  return { expectHash: value };
}

/** `read-state`, `write-state` and `plans`: one idea (the routed harness state), three verbs. */
export function registerStateFiles(program: Command, ctx: CliContext): void {
  program
    .command('read-state <file>')
    .description(
      'print a harness state file (PLAN.md, progress-foo.md, …) from its routed location; nothing when absent',
    )
    .option('--cwd <dir>', 'the repo (default: the current directory)')
    .option('--project-root <dir>', 'alias of --cwd (agentm)')
    .action(async (file: string, opts: ProjectOpts) => {
      const { readStateFile } = await import('../../state/state-files.js');
      (ctx.io.outRaw ?? ctx.io.out)(await readStateFile(await project(ctx, opts), file)); // verbatim, as agentm
    });
  program
    .command('write-state <file>')
    .description('write a harness state file to its routed location (vault: lock + CAS); prints the path')
    .option('--cwd <dir>', 'the repo (default: the current directory)')
    .option('--project-root <dir>', 'alias of --cwd (agentm)')
    .option('--content-file <file>', 'the content (- = standard input)', '-')
    .option('--expect-hash <sha256|absent>', 'write only if the file still has this content hash (or is still absent)')
    .action(async (file: string, opts: ProjectOpts & { contentFile: string; expectHash?: string }) => {
      const expect = parseExpect(opts.expectHash);
      const content = await readInputFile(ctx, opts.contentFile, '--content-file');
      const { writeStateFile } = await import('../../state/state-files.js');
      ctx.io.out(`${await writeStateFile(await project(ctx, opts), file, content, expect)}\n`);
    });
  program
    .command('plans')
    .description('list the plan files (PLAN.md, then PLAN-*.md) and the active binding')
    .option('--cwd <dir>', 'the repo (default: the current directory)')
    .option('--project-root <dir>', 'alias of --cwd (agentm)')
    .option('--json', 'print {dir, plans: [{name, title, file, path, active}], active} as JSON')
    .action(async (opts: ProjectOpts & { json?: boolean }) => {
      const ws = await cliWorkspace(ctx, { projectRoot: dirOption(ctx, opts.cwd ?? opts.projectRoot) });
      const listing = await ws.listPlans({ summaries: opts.json === true });
      if (opts.json) {
        const plans = listing.plans.map((p) => ({
          name: p.name,
          title: p.title,
          file: basename(p.planFile),
          path: p.planFile,
          active: p.active,
        }));
        printJson(ctx, { dir: listing.stateDir, plans, active: listing.binding ?? null });
        return;
      }
      for (const plan of listing.plans) ctx.io.out(`${plan.planFile}\n`);
      if (listing.binding) ctx.io.out(`active-binding=${listing.binding}\n`);
    });
  program
    .command('switch <plan>')
    .description('make <plan> the active plan of this repository (writes .harness/active-plan; PLAN: PLAN.md)')
    .option('--cwd <dir>', 'the repo (default: the current directory)')
    .action(async (plan: string, opts: ProjectOpts) => {
      const ws = await cliWorkspace(ctx, { projectRoot: dirOption(ctx, opts.cwd) });
      const switched = await ws.switchPlan(planOption(plan, '<plan>')!);
      const listed = (await ws.listPlans()).plans.find((p) => p.name === switched.name);
      const title = listed && listed.title !== listed.name ? ` (${listed.title})` : '';
      ctx.io.out(`active plan: ${switched.name}${title}\n`);
      ctx.io.err(
        switched.name === 'PLAN'
          ? `agentm switch: removed ${switched.marker}: PLAN.md is the plan again\n`
          : `agentm switch: wrote ${switched.marker}; agentm run, the hooks and the editors now work on it\n`,
      );
    });
}

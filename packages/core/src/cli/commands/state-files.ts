import type { Command } from 'commander';
import type { ProjectResolution } from '../../routing/resolve-project.js';
import { join } from 'node:path';
import type { CliContext } from '../context.js';
import { CliError, EXIT_USAGE } from '../errors.js';
import { dirOption, printJson, readInputFile } from '../support.js';

/** `PLAN.md` → `PLAN`, `PLAN-foo.md` → `foo`: the name `--plan` takes. */
export function planNameOf(file: string): string {
  return file === 'PLAN.md' ? 'PLAN' : file.replace(/^PLAN-/, '').replace(/\.md$/, '');
}
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
    .option('--json', 'print {dir, plans: [{name, file, path}], active} as JSON')
    .action(async (opts: ProjectOpts & { json?: boolean }) => {
      const resolution = await project(ctx, opts);
      const { harnessStateDir } = await import('../../state/state-files.js');
      const { listPlans } = await import('../../state/list-plans.js');
      const { readActivePlanMarker } = await import('../../state/active-plan.js');
      const dir = await harnessStateDir(resolution);
      const files = await listPlans(resolution);
      const marker = (await readActivePlanMarker(resolution.projectRoot).catch(() => undefined))?.trim();
      if (opts.json) {
        const plans = files.map((file) => ({ name: planNameOf(file), file, path: join(dir, file) }));
        printJson(ctx, { dir, plans, active: marker || null });
        return;
      }
      for (const name of files) ctx.io.out(`${join(dir, name)}\n`);
      if (marker) ctx.io.out(`active-binding=${marker}\n`);
    });
}

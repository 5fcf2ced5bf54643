import type { Command } from 'commander';
import { listRepos, registerRepo, unregisterRepo } from '../../routing/repo-registry.js';
import type { CliContext } from '../context.js';
import { dirOption, printJson } from '../support.js';
import { cliWorkspace } from '../workspace-cli.js';

export function registerRepos(program: Command, ctx: CliContext): void {
  const repos = program.command('repos').description('the repo registry (_meta/repos.json in the selected store)');
  repos
    .command('list')
    .description('print {"repos": [...]} in registration order')
    .action(async () => {
      const { backend } = await cliWorkspace(ctx, { createRoot: false });
      printJson(ctx, { repos: await listRepos(backend) });
    });
  repos
    .command('register <slug>')
    .description('register (or update) a repo; prints the slug')
    .requiredOption('--root <dir>', 'the repo root (made absolute, normalized)')
    .option('--wiki <dir>', 'the repo wiki folder')
    .action(async (slug: string, opts: { root: string; wiki?: string }) => {
      const { backend } = await cliWorkspace(ctx);
      await registerRepo(
        backend,
        slug,
        dirOption(ctx, opts.root),
        opts.wiki === undefined ? undefined : dirOption(ctx, opts.wiki),
      );
      ctx.io.out(`${slug}\n`);
    });
  repos
    .command('unregister <slug>')
    .description('remove a repo; prints removed or noop')
    .action(async (slug: string) => {
      const { backend } = await cliWorkspace(ctx);
      ctx.io.out(`${(await unregisterRepo(backend, slug)) ? 'removed' : 'noop'}\n`);
    });
}

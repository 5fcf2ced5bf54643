import type { Command } from 'commander';
import type { StorageBackend } from '../../seam/backend.js';
import { pythonJson } from '../../config/python-json.js';
import type { CliContext } from '../context.js';
import { EXIT_CHECK_FAILED } from '../errors.js';
import { dirOption, printJson } from '../support.js';
import { cliWorkspace } from '../workspace-cli.js';

/**
 * The selected store, or undefined after printing agentm's graceful-skip envelope: when selection
 * fails in any way, `repo_registry.py` prints `{"skipped": true, "reason": "…"}` (one line, Python's
 * `json.dumps`) on stdout and exits 1, before looking at the subcommand.
 */
async function storeOrSkip(ctx: CliContext, createRoot: boolean): Promise<StorageBackend | undefined> {
  try {
    return (await cliWorkspace(ctx, { createRoot })).backend;
  } catch (error) {
    const reason = pythonJson(`select_backend() failed: ${(error as Error)?.message ?? String(error)}`).trimEnd();
    ctx.io.out(`{"skipped": true, "reason": ${reason}}\n`);
    ctx.exitCode = EXIT_CHECK_FAILED;
    return undefined;
  }
}

export function registerRepos(program: Command, ctx: CliContext): void {
  const repos = program.command('repos').description('the repo registry (_meta/repos.json in the selected store)');
  repos
    .command('list')
    .description('print {"repos": [...]} in registration order (always JSON)')
    .option('--json', 'the same JSON (accepted for consistency)')
    .action(async () => {
      const backend = await storeOrSkip(ctx, false);
      if (!backend) return;
      const { listRepos } = await import('../../routing/repo-registry.js');
      printJson(ctx, { repos: await listRepos(backend) });
    });
  repos
    .command('register <slug>')
    .description('register (or update) a repo; prints the slug')
    .requiredOption('--root <dir>', 'the repo root (made absolute, normalized)')
    .option('--wiki <dir>', 'the repo wiki folder')
    .option('--json', 'print {"slug", "registered": true} as JSON')
    .action(async (slug: string, opts: { root: string; wiki?: string; json?: boolean }) => {
      const backend = await storeOrSkip(ctx, true);
      if (!backend) return;
      const { registerRepo } = await import('../../routing/repo-registry.js');
      await registerRepo(
        backend,
        slug,
        dirOption(ctx, opts.root),
        opts.wiki === undefined ? undefined : dirOption(ctx, opts.wiki),
      );
      if (opts.json) printJson(ctx, { slug, registered: true });
      else ctx.io.out(`${slug}\n`);
    });
  repos
    .command('unregister <slug>')
    .description('remove a repo; prints removed or noop')
    .option('--json', 'print {"slug", "removed": true|false} as JSON')
    .action(async (slug: string, opts: { json?: boolean }) => {
      const backend = await storeOrSkip(ctx, true);
      if (!backend) return;
      const { unregisterRepo } = await import('../../routing/repo-registry.js');
      const removed = await unregisterRepo(backend, slug);
      if (opts.json) printJson(ctx, { slug, removed });
      else ctx.io.out(`${removed ? 'removed' : 'noop'}\n`);
    });
}

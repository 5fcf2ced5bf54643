import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { CliError, EXIT_CHECK_FAILED, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { dirOption, hostOf, printJson } from '../support.js';

/** The harness's approval modules, loaded when an approve command runs (never for `agentm --help`). */
async function approvals() {
  return {
    ...(await import('../../harness/command-exec/shell-words.js')),
    ...(await import('../../harness/command-exec/approvals.js')),
    ...(await import('../../harness/command-exec/approvals-file.js')),
    ...(await import('../../harness/command-exec/command-text.js')),
  };
}

/** The argv a person typed: one quoted argument is split like a `cmd::` (`'npm test'`), several are the words. */
async function argvOf(words: readonly string[]): Promise<string[]> {
  if (words.length === 1) {
    const { CommandSyntaxError, splitCommand } = await approvals();
    try {
      return splitCommand(words[0]!);
    } catch (error) {
      if (error instanceof CommandSyntaxError) throw new CliError(error.message, EXIT_USAGE);
      throw error;
    }
  }
  if (words.length === 0 || words[0]!.trim() === '') throw new CliError('name the command to approve', EXIT_USAGE);
  return [...words];
}

/**
 * `agentm approve`: the commands this machine trusts in this repo (the current directory), kept in
 * `~/.config/agentm/approvals.json`, never in the vault. `list`, `add`, `revoke`, and allow-list
 * patterns (`allow`, `disallow`).
 */
export function registerApprove(program: Command, ctx: CliContext): void {
  const approve = program
    .command('approve')
    .description("the commands plans and the model may run in this repo without asking (this machine's approvals)");
  const where = async () => {
    const { approvalsFilePath, repoKey } = await approvals();
    const host = hostOf(ctx);
    return {
      file: approvalsFilePath(host.env, host.home),
      repo: repoKey(dirOption(ctx, undefined)),
      lock: { env: host.env as NodeJS.ProcessEnv, home: host.home },
    };
  };

  approve
    .command('list')
    .description('approved commands and allow-list patterns of this repo')
    .option('--json', 'as JSON')
    .action(async (opts: { json?: boolean }) => {
      const { file, repo } = await where();
      const { readApprovals, repoTrust } = await approvals();
      const trust = repoTrust(await readApprovals(file), repo);
      if (opts.json) {
        printJson(ctx, { repo, file, approved: trust.approved, allow: trust.allow });
      } else {
        ctx.io.out(`approvals for ${repo} (${file})\n`);
        const approved = Object.entries(trust.approved);
        if (approved.length === 0 && trust.allow.length === 0) ctx.io.out('  none: every command asks first\n');
        for (const [digest, a] of approved)
          ctx.io.out(`  approved ${digest.slice(0, 12)}  ${a.command}  (${a.approved_at})\n`);
        for (const p of trust.allow) ctx.io.out(`  allow    ${p}\n`);
      }
      ctx.exitCode = EXIT_OK;
    });

  approve
    .command('add')
    .description("approve one command in this repo, e.g. agentm approve add -- npm test (or 'npm test')")
    .argument('<command...>', 'the program and its arguments')
    .action(async (words: string[]) => {
      const argv = await argvOf(words);
      const { file, repo, lock } = await where();
      const { updateApprovals, withApproval, formatArgv, commandDigest } = await approvals();
      await updateApprovals(
        file,
        (current) => ({ approvals: withApproval(current, repo, argv, new Date()), result: 0 }),
        lock,
      );
      ctx.io.out(`approved in ${repo}: ${formatArgv(argv)} (${commandDigest(argv).slice(0, 12)})\n`);
      ctx.exitCode = EXIT_OK;
    });

  approve
    .command('revoke')
    .description('withdraw an approval: by the digest `list` shows (8+ characters) or by the command')
    .argument('<digest-or-command...>', 'a digest prefix, or the command')
    .action(async (words: string[]) => {
      const { file, repo, lock } = await where();
      const { updateApprovals, withoutApproval, formatArgv } = await approvals();
      const digestPrefix = words.length === 1 && /^[0-9a-f]{8,64}$/.test(words[0]!) ? words[0]! : undefined;
      const command = digestPrefix ? undefined : formatArgv(await argvOf(words));
      const removed = await updateApprovals(
        file,
        (current) => {
          const r = withoutApproval(current, repo, {
            ...(digestPrefix ? { digestPrefix } : {}),
            ...(command ? { command } : {}),
          });
          return { approvals: r.removed.length > 0 ? r.approvals : current, result: r.removed };
        },
        lock,
      );
      if (removed.length === 0) {
        ctx.io.err(`agentm approve: no approval in ${repo} matches ${words.join(' ')} (see agentm approve list)\n`);
        ctx.exitCode = EXIT_CHECK_FAILED;
        return;
      }
      for (const c of removed) ctx.io.out(`revoked in ${repo}: ${c}\n`);
      ctx.exitCode = EXIT_OK;
    });

  approve
    .command('allow')
    .description("allow every command matching a pattern in this repo ('*' matches anything), e.g. 'npm run *'")
    .argument('<pattern>', 'matched against the command as agentm approve list shows it')
    .action(async (pattern: string) => {
      if (pattern.trim() === '' || pattern.trim() === '*')
        throw new CliError(
          "an allow-list pattern must name a program ('*' alone would allow anything: use agentm run --yes for one run instead)",
          EXIT_USAGE,
        );
      const { file, repo, lock } = await where();
      const { updateApprovals, withAllowPattern } = await approvals();
      await updateApprovals(
        file,
        (current) => ({ approvals: withAllowPattern(current, repo, pattern), result: 0 }),
        lock,
      );
      ctx.io.out(`allowed in ${repo}: ${pattern.trim().replace(/\s+/g, ' ')}\n`);
      ctx.exitCode = EXIT_OK;
    });

  approve
    .command('disallow')
    .description('remove an allow-list pattern of this repo')
    .argument('<pattern>', 'the pattern as agentm approve list shows it')
    .action(async (pattern: string) => {
      const { file, repo, lock } = await where();
      const { updateApprovals, withoutAllowPattern } = await approvals();
      const removed = await updateApprovals(
        file,
        (current) => {
          const r = withoutAllowPattern(current, repo, pattern);
          return { approvals: r.removed ? r.approvals : current, result: r.removed };
        },
        lock,
      );
      if (!removed) {
        ctx.io.err(`agentm approve: ${repo} has no allow-list pattern ${JSON.stringify(pattern)}\n`);
        ctx.exitCode = EXIT_CHECK_FAILED;
        return;
      }
      ctx.io.out(`disallowed in ${repo}: ${pattern.trim().replace(/\s+/g, ' ')}\n`);
      ctx.exitCode = EXIT_OK;
    });
}

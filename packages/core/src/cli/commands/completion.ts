import { Option, type Command } from 'commander';
import type { CliContext } from '../context.js';
import { complete, completionScript, formatCandidates, SHELLS, type DynamicValues, type Shell } from '../completion.js';
import { CliError, EXIT_OK, EXIT_USAGE } from '../errors.js';
import { cliWorkspace } from '../workspace-cli.js';

/**
 * Plan names and step ids of the current directory's project, read without creating anything. Each
 * loads its modules when asked: a completion that needs neither never loads the store or the harness.
 */
function dynamicValues(ctx: CliContext): DynamicValues {
  const workspace = () => cliWorkspace(ctx, { createRoot: false });
  return {
    async plans() {
      const ws = await workspace();
      return (await ws.project()) ? (await ws.listPlans({ summaries: false })).plans.map((p) => p.name) : [];
    },
    async steps(plan) {
      const { files } = await (await workspace()).planFiles(plan);
      const snap = await files.readPlan();
      if (!snap) return [];
      const { parsePlan } = await import('../../harness/plan/plan-document.js');
      const { effectiveStatus } = await import('../../harness/plan/plan-edit.js');
      const doc = parsePlan(snap.text);
      return doc.steps.map((s) => ({ id: s.id, title: s.title, status: effectiveStatus(doc, s) }));
    },
    async configKeys() {
      const { knownKeyNames } = await import('../config-keys.js');
      return [...knownKeyNames(), 'vault_path', 'memory_root', 'spaces'];
    },
  };
}

/**
 * `agentm completion <shell>` prints the script a shell loads; the script calls the hidden
 * `agentm __complete`, which reads the command tree and, where cheap, the plans and steps of the
 * current directory. A completion never fails loudly: any error is no candidates.
 */
export function registerCompletion(program: Command, ctx: CliContext): void {
  program
    .command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .argument('<shell>', SHELLS.join(', '))
    .action((shell: string) => {
      if (!(SHELLS as readonly string[]).includes(shell))
        throw new CliError(
          `completion: unknown shell ${JSON.stringify(shell)}; use one of ${SHELLS.join(', ')}`,
          EXIT_USAGE,
        );
      ctx.io.out(completionScript(shell as Shell));
      ctx.exitCode = EXIT_OK;
    });
  program
    .command('__complete', { hidden: true })
    .description('candidates for the word being completed (used by the completion scripts)')
    .addOption(new Option('--shell <shell>').choices([...SHELLS]).default('bash'))
    .argument('[words...]', 'the words after agentm, the last one being typed')
    .allowUnknownOption()
    .action(async (words: string[], opts: { shell: Shell }) => {
      try {
        ctx.io.out(formatCandidates(await complete(program, words, dynamicValues(ctx)), opts.shell));
      } catch {
        // No candidates rather than an error in the middle of someone's command line.
      }
      ctx.exitCode = EXIT_OK;
    });
}

import type { Command } from 'commander';
import { configFilePath } from '../../config/config-file.js';
import type { CliContext } from '../context.js';
import { CliError, EXIT_OK, EXIT_USAGE } from '../errors.js';
import type { EndpointAnswer, InitAnswers } from '../init-setup.js';
import { hostOf, printJson } from '../support.js';
import { EXIT_INTERRUPTED } from './run.js';

interface InitFlags {
  vault?: string;
  memoryRoot?: string;
  project?: string;
  chatUrl?: string;
  chatModel?: string;
  embedUrl?: string;
  embedModel?: string;
  embedLocal?: boolean;
  detect?: boolean;
  yes?: boolean;
  force?: boolean;
  json?: boolean;
}

function endpointFlag(url: string | undefined, model: string | undefined): EndpointAnswer | undefined {
  return url === undefined && model === undefined ? undefined : { url: url ?? '', model: model ?? '' };
}

/** What will be written, one line each, for the summary and for the result. */
function describeAnswers(file: string, cwd: string, a: InitAnswers): string {
  const lines: string[] = [];
  if (a.vault !== undefined)
    lines.push(`${file}: vault ${a.vault}${a.memoryRoot ? `, memory root ${a.memoryRoot}` : ''}`);
  else if (a.memoryRoot !== undefined) lines.push(`${file}: memory root ${a.memoryRoot}`);
  if (a.chat) lines.push(`${file}: chat ${a.chat.model} at ${a.chat.url}`);
  if (a.embeddings) lines.push(`${file}: embeddings ${a.embeddings.model} at ${a.embeddings.url}`);
  if (a.project !== undefined) lines.push(`${cwd}/.harness/project.json: vault_project ${a.project}`);
  return lines.length > 0 ? lines.join('\n') : 'nothing (every setting stays as it is)';
}

/**
 * `agentm init`: points AgentM at a vault, binds this repository to a project and, optionally, names a
 * chat and an embeddings endpoint. On a terminal it asks (clack); flags answer without asking (`--yes`:
 * ask nothing at all). Everything is checked before anything is written; the config goes through the
 * config writer in one write, the binding is merged into `.harness/project.json` key-wise.
 */
export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description("set AgentM up: the vault, the memory root, this repo's project, optional model endpoints")
    .option('--vault <dir>', 'the Obsidian vault folder (selects the vault backend)')
    .option('--memory-root <folder>', "the agent's folder inside the vault, e.g. Agent")
    .option('--project <slug>', "this repository's project (written to .harness/project.json)")
    .option('--chat-url <url>', 'an OpenAI-compatible chat endpoint, e.g. http://127.0.0.1:11434/v1')
    .option('--chat-model <name>', 'the chat model it serves')
    .option('--embed-url <url>', 'an OpenAI-compatible embeddings endpoint')
    .option('--embed-model <name>', 'the embeddings model it serves')
    .option('--embed-local', 'use the embedding model of a local Ollama or LM Studio (found on 127.0.0.1)')
    .option('--no-detect', 'do not look for a local Ollama or LM Studio')
    .option('-y, --yes', 'ask nothing: apply the flags as given')
    .option('--force', 'rebind a repository that .harness/project.json binds to another project')
    .option('--json', 'print what was written as JSON')
    .action(async (opts: InitFlags) => {
      const host = hostOf(ctx);
      const cwd = ctx.io.cwd;
      const file = configFilePath(host);
      const flagged: InitAnswers = {
        vault: opts.vault,
        memoryRoot: opts.memoryRoot,
        project: opts.project,
        chat: endpointFlag(opts.chatUrl, opts.chatModel),
        embeddings: endpointFlag(opts.embedUrl, opts.embedModel),
      };
      const interactive = ctx.io.ask !== undefined && !opts.yes && !opts.json;
      // The set-up (config writer, project binding) and the prompts load here, not for `agentm --help`.
      const { applyInit, checkAnswers, initDefaults } = await import('../init-setup.js');
      // A local Ollama or LM Studio: offered on a terminal, taken with --embed-local, hinted at otherwise.
      const { localEmbeddings, localHint } = await import('../init-local.js');
      const local = await localEmbeddings(host, opts, flagged.embeddings);
      const given: InitAnswers = local.chosen ? { ...flagged, embeddings: local.chosen } : flagged;
      let answers = given;
      if (interactive) {
        const { askInit, endInit, InitCancelled } = await import('../init-prompts.js');
        try {
          answers = await askInit(host, { ...(await initDefaults(host, cwd)), local: local.servers }, given, (a) =>
            describeAnswers(file, cwd, a),
          );
        } catch (error) {
          if (!(error instanceof InitCancelled)) throw error;
          endInit('nothing was written', true);
          ctx.exitCode = EXIT_INTERRUPTED;
          return;
        }
        const entries = checkAnswers(host, answers);
        const done = await applyInit(host, cwd, answers, entries, { force: opts.force === true });
        const embedding = embedInBackground(ctx, answers) ? '; the notes are being embedded in the background' : '';
        endInit(
          `${done.config?.changed || done.binding?.outcome !== 'unchanged' ? 'done' : 'nothing changed'}${embedding}; check it with: agentm doctor`,
        );
        ctx.exitCode = EXIT_OK;
        return;
      }
      if (Object.values(given).every((v) => v === undefined))
        throw new CliError(
          'init: nothing to set: give --vault, --memory-root, --project, --chat-url/--chat-model or --embed-url/--embed-model, ' +
            'or run agentm init on a terminal to be asked',
          EXIT_USAGE,
        );
      const entries = checkAnswers(host, answers);
      const done = await applyInit(host, cwd, answers, entries, { force: opts.force === true });
      const hint =
        local.chosen === undefined && answers.embeddings === undefined ? localHint(local.servers) : undefined;
      const embedding = embedInBackground(ctx, answers);
      if (opts.json) {
        printJson(ctx, {
          config: done.config ? { file: done.config.file, changed: done.config.changed } : null,
          project: done.binding
            ? { file: done.binding.file, outcome: done.binding.outcome, slug: answers.project }
            : null,
        });
      } else {
        if (done.config) ctx.io.out(`${done.config.changed ? 'updated' : 'unchanged'} ${done.config.file}\n`);
        if (done.binding) ctx.io.out(`${done.binding.outcome} ${done.binding.file} (project ${answers.project})\n`);
        if (embedding)
          ctx.io.err('agentm init: the notes are being embedded in the background (agentm reindex shows progress)\n');
        if (hint) ctx.io.err(`agentm init: ${hint}\n`);
        ctx.io.err('agentm init: check the set-up with: agentm doctor\n');
      }
      ctx.exitCode = EXIT_OK;
    });
}

/** With an embeddings endpoint now set, starts the background refresh that computes the notes' vectors. */
function embedInBackground(ctx: CliContext, answers: InitAnswers): boolean {
  if (answers.embeddings === undefined || ctx.io.background === undefined) return false;
  ctx.io.background();
  return true;
}

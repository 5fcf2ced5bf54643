import * as clack from '@clack/prompts';
import { printable } from '../seam/printable.js';
import type { HostEnv } from '../config/host.js';
import type { EndpointAnswer, InitAnswers, InitDefaults } from './init-setup.js';
import { memoryRootProblem, projectProblem, vaultProblem } from './init-setup.js';
import { bestLocalServer } from '../providers/local-detect.js';

/** The person pressed Ctrl-C or Escape: nothing is written. */
export class InitCancelled extends Error {}

/** The terminal streams the prompts use (stderr: stdout stays for data, as for every other command). */
const io = { input: process.stdin, output: process.stderr } as const;

function answered<T>(value: T | symbol): Exclude<T, symbol> {
  if (clack.isCancel(value) || typeof value === 'symbol') throw new InitCancelled();
  return value as Exclude<T, symbol>;
}

async function endpoint(
  role: string,
  about: string,
  current: Partial<EndpointAnswer> | undefined,
  examples: { url: string; model: string },
): Promise<EndpointAnswer | undefined> {
  const want = answered(
    await clack.confirm({
      ...io,
      message: `Configure a ${role} endpoint (${about})?`,
      initialValue: current !== undefined,
    }),
  );
  if (!want) return undefined;
  const url = answered(
    await clack.text({
      ...io,
      message: `${role} endpoint base URL (OpenAI-compatible: Ollama, LM Studio, llama.cpp, OpenAI)`,
      placeholder: examples.url,
      ...(current?.url ? { initialValue: printable(current.url) } : {}),
      validate: (v) => (/^https?:\/\/\S+$/.test((v ?? '').trim()) ? undefined : `an http(s) URL, e.g. ${examples.url}`),
    }),
  );
  const model = answered(
    await clack.text({
      ...io,
      message: `${role} model name`,
      placeholder: examples.model,
      ...(current?.model ? { initialValue: printable(current.model) } : {}),
      validate: (v) => ((v ?? '').trim() === '' ? 'the model the endpoint serves' : undefined),
    }),
  );
  return { url: url.trim(), model: model.trim() };
}

/**
 * A local embedding server found on this machine, offered when no embeddings endpoint is set yet: its
 * model is used only if the person says yes. One without an embedding model gets the command that
 * pulls one. Undefined: the generic question follows.
 */
async function localEndpoint(defaults: InitDefaults): Promise<EndpointAnswer | undefined> {
  if (defaults.embeddings !== undefined || !defaults.local?.length) return undefined;
  const best = bestLocalServer(defaults.local);
  if (best === undefined) {
    const bare = defaults.local[0]!;
    clack.note(
      `${bare.name} runs at ${printable(bare.url)} but has no embedding model. For semantic recall on this machine: ${bare.getOne}, then run agentm init again.`,
      'Local embeddings',
      io,
    );
    return undefined;
  }
  const use = answered(
    await clack.confirm({
      ...io,
      message: `${best.name} at ${printable(best.url)} has ${printable(best.offer!)}: use it for semantic recall? (the notes are embedded on this machine; nothing leaves it)`,
      initialValue: true,
    }),
  );
  return use ? { url: best.baseUrl, model: best.offer! } : undefined;
}

/**
 * The interactive set-up (clack): the vault folder (empty keeps the device-local store), the agent's
 * folder in it, this repository's project, optional chat and embeddings endpoints, then a summary to
 * confirm. Answers given as flags are not asked again. Ctrl-C → `InitCancelled`, nothing written.
 */
export async function askInit(
  host: HostEnv,
  defaults: InitDefaults,
  given: InitAnswers,
  summary: (answers: InitAnswers) => string,
): Promise<InitAnswers> {
  clack.intro('agentm init', io);
  let vault = given.vault;
  if (vault === undefined) {
    const v = answered(
      await clack.text({
        ...io,
        message: 'Obsidian vault folder (leave empty to keep memories on this machine only)',
        placeholder: '~/Vault',
        ...(defaults.vault ? { initialValue: printable(defaults.vault) } : {}),
        validate: (value) => ((value ?? '').trim() === '' ? undefined : vaultProblem(host, value ?? '')),
      }),
    );
    vault = v.trim() === '' ? undefined : v.trim();
  }
  let memoryRoot = given.memoryRoot;
  if (memoryRoot === undefined && vault !== undefined)
    memoryRoot = answered(
      await clack.text({
        ...io,
        message: "The agent's folder inside the vault",
        initialValue: printable(defaults.memoryRoot),
        validate: (value) => memoryRootProblem(value ?? ''),
      }),
    ).trim();
  let project = given.project;
  if (project === undefined) {
    const p = answered(
      await clack.text({
        ...io,
        message: `Project name for this repository${defaults.projectSource ? ` (from ${printable(defaults.projectSource)})` : ''}; empty: do not bind`,
        ...(defaults.project ? { initialValue: printable(defaults.project) } : {}),
        validate: (value) => ((value ?? '').trim() === '' ? undefined : projectProblem(value ?? '')),
      }),
    );
    project = p.trim() === '' ? undefined : p.trim();
  }
  const chat =
    given.chat ??
    (await endpoint('chat', 'LLM plan steps, planning, consolidation', defaults.chat, {
      url: 'http://127.0.0.1:11434/v1',
      model: 'llama3.1',
    }));
  const embeddings =
    given.embeddings ??
    (await localEndpoint(defaults)) ??
    (await endpoint('embeddings', 'hybrid recall', defaults.embeddings, {
      url: 'http://127.0.0.1:11434/v1',
      model: 'nomic-embed-text',
    }));
  const answers: InitAnswers = { vault, memoryRoot, project, chat, embeddings };
  clack.note(summary(answers), 'This will be written', io);
  if (!answered(await clack.confirm({ ...io, message: 'Write it?' }))) throw new InitCancelled();
  return answers;
}

/** Closes the interactive session (a last line under the prompts). */
export function endInit(message: string, cancelled = false): void {
  if (cancelled) clack.cancel(message, io);
  else clack.outro(message, io);
}

import { fileURLToPath } from 'node:url';
import type { ConfigData } from '../config/config-file.js';
import { ChatConfigError, chatProviderFrom } from '../harness/chat/env-provider.js';
import type { HarnessChatProvider } from '../harness/chat/chat-provider.js';
import { memoryLayoutFromConfig } from '../memory/layout-config.js';
import { memorySettingsFromConfig } from '../memory/memory-config.js';
import { noteToDocument } from '../memory/note-documents.js';
import {
  loadProviderSettings,
  MemoryIndex,
  ProviderConfigError,
  providersFrom,
  type Providers,
} from '../memory/engine.js';
import { resolveProject, type ProjectResolution } from '../routing/resolve-project.js';
import type { StorageBackend } from '../seam/backend.js';
import { selectBackend, type SelectedBackend } from '../selection/select-backend.js';
import type { CliContext } from './context.js';
import { CliError, EXIT_USAGE } from './errors.js';
import { hostOf } from './support.js';

/**
 * The providers of a CLI run: config keys `providers.*` overridden by `AGENTM_LLM_*` / `AGENTM_EMBED_*`.
 * A half-configured provider is a usage error naming the variable and the key; deprecated variables
 * are warned about on stderr.
 */
export async function cliProviders(ctx: CliContext): Promise<Providers> {
  try {
    const settings = await loadProviderSettings(hostOf(ctx));
    for (const w of settings.warnings) ctx.io.err(`agentm: warning: ${w}\n`);
    return providersFrom(settings);
  } catch (error) {
    if (error instanceof ProviderConfigError || error instanceof ChatConfigError)
      throw new CliError(error.message, EXIT_USAGE);
    throw error;
  }
}

/** The harness's chat provider of a CLI run: the same shared client memory uses (see `cliProviders`). */
export async function cliChatProvider(ctx: CliContext): Promise<HarnessChatProvider | undefined> {
  return chatProviderFrom((await cliProviders(ctx)).chatClient);
}

/** The store the memory commands use: the selected backend (selection errors propagate) and the config it was chosen by. */
export interface MemoryStore {
  readonly backend: StorageBackend;
  /** The memory root on disk (names the index). */
  readonly root: string;
  readonly protocol: string;
  readonly config: ConfigData;
  readonly selection: SelectedBackend;
}

export async function memoryStore(ctx: CliContext): Promise<MemoryStore> {
  const selection = await selectBackend({ host: hostOf(ctx) });
  const root = (selection.backend as unknown as { root?: string }).root ?? selection.root ?? '';
  return { backend: selection.backend, root, protocol: selection.protocol, config: selection.choice.config, selection };
}

/** The project of the cwd (its slug and folder) over an already selected store; no slug → `slug` undefined. */
export function projectHere(ctx: CliContext, store: MemoryStore): Promise<ProjectResolution> {
  return resolveProject({ cwd: ctx.io.cwd, host: hostOf(ctx), select: async () => store.selection });
}

/** The built read worker of a cold index build (dist/memory/indexing/read-worker.js, beside this file's folder). */
export const READ_WORKER_SCRIPT = fileURLToPath(new URL('../memory/indexing/read-worker.js', import.meta.url));

/** Opens the index of the selected memory root (in the user cache dir), with the embedder if configured. */
export async function openCliIndex(
  ctx: CliContext,
  store?: MemoryStore,
): Promise<{ index: MemoryIndex; store: MemoryStore; providers: Providers }> {
  const s = store ?? (await memoryStore(ctx));
  const providers = await cliProviders(ctx);
  const index = await MemoryIndex.open({
    backend: s.backend,
    memoryRoot: s.root,
    toDocument: noteToDocument,
    env: ctx.io.env,
    embedder: providers.embedder,
    layout: memoryLayoutFromConfig(s.config),
    workerScript: READ_WORKER_SCRIPT,
    maxNoteChars: memorySettingsFromConfig(s.config).maxNoteChars,
  });
  return { index, store: s, providers };
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `90s`, `30m`, `1h`, `7d`, `2w`, or plain milliseconds → milliseconds; a usage error otherwise. */
export function parseDuration(text: string, flag: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/.exec(text);
  if (!m) throw new CliError(`${flag} takes a duration such as 30m, 1h or 7d, got ${JSON.stringify(text)}`, EXIT_USAGE);
  return Number(m[1]) * UNITS[m[2] ?? 'ms']!;
}

/** A positive integer option; a usage error otherwise. */
export function parsePositiveInt(text: string, flag: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) <= 0)
    throw new CliError(`${flag} takes a positive whole number, got ${JSON.stringify(text)}`, EXIT_USAGE);
  return Number(text);
}

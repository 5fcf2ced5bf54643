import type { Capabilities } from '../seam/capabilities.js';
import type { StorageBackend } from '../seam/backend.js';
import type { BackendRegistry } from '../seam/registry.js';
import type { ConfigData } from '../config/config-file.js';
import type { HostEnv } from '../config/host.js';
import type { ChatProvider } from '../providers/chat.js';
import type { EmbeddingProvider } from '../providers/embeddings.js';
import { providersFrom, resolveProviderSettings } from '../providers/settings.js';

/**
 * Where a context's chat model and embeddings come from. Each is asked for at most once per workspace,
 * and only by a service that needs it (a recall asks for the embedder, a consolidation or an LLM step
 * for the chat model), so a context that never uses one never pays for it.
 */
export interface ProviderSource {
  /** The embedding provider, or undefined (lexical recall). A setting that cannot work throws `ProviderConfigError`. */
  embedder(): Promise<EmbeddingProvider | undefined>;
  /** The chat model, or undefined (extractive consolidation, single-step planning). Same errors. */
  chat(): Promise<ChatProvider | undefined>;
}

/** How a workspace is built. Every key is optional; a CLI run passes its host and cwd, an editor more. */
export interface WorkspaceOptions {
  /** Environment and home every config file and root is read through (default: this process). */
  readonly host?: HostEnv;
  /** The repository this context works in (the CLI's cwd, VS Code's first folder). Absent: no repository. */
  readonly projectRoot?: string | undefined;
  /**
   * The store, when the host brings its own (Obsidian's in-vault backend): then nothing is selected and
   * `config` is read tolerantly. Absent: the store is selected from the config (DESIGN §6) through `registry`.
   */
  readonly backend?: StorageBackend;
  /** Where protocol names are looked up (default: a fresh registry with the built-in backends). */
  readonly registry?: BackendRegistry;
  /** Create the store root when selecting it (default true). Read-only contexts pass false. */
  readonly createRoot?: boolean;
  /** Capabilities the context cannot work without (selection refuses a backend lacking one). */
  readonly required?: Partial<Capabilities>;
  /** The device-local root (default: `AGENTM_DEVICE_LOCAL_ROOT` → `~/.agentm/memory`). */
  readonly deviceLocalRoot?: string;
  /** Lock root of the vault and index locks (default: `<XDG_CACHE_HOME or ~/.cache>/agentm/locks` of the host). */
  readonly lockRoot?: string;
  /** The memory index: where it lives and how it is built. */
  readonly index?: {
    /** Parent of the per-root index directories (default `<XDG_CACHE_HOME or ~/.cache>/agentm/index`; VS Code: its global storage). */
    readonly root?: string | undefined;
    /** The built read worker, for a multi-threaded first build (see `MemoryIndexOptions.workerScript`). */
    readonly workerScript?: string | undefined;
    /** Give the index the embedder (default true). The process seam passes false: hook-grade recall is lexical, no network. */
    readonly embeddings?: boolean | undefined;
    /**
     * Ask a running recall server (`agentm mcp`) of this AgentM version before opening the index (default:
     * never). Short-lived processes (the CLI, Claude Code's hooks) pass the version they run. Lexical recall
     * only; the same answer either way.
     */
    readonly service?: { readonly version: string } | undefined;
    /**
     * For short-lived processes (the CLI, Claude Code's hooks): a recall catches up from the store's change
     * log and its folders instead of walking every note (`MemoryIndex.refreshChanges`), and calls this to
     * start a full walk in a detached process when one is due (`memory.index.revalidate_after`) and none
     * is running. Absent (long-lived hosts, which watch the store): every recall walks (`refresh`).
     */
    readonly revalidate?: (() => void) | undefined;
    /** How the index's snapshot is checked when opened (see `MemoryIndexOptions.verify`; default `full`). */
    readonly verify?: 'full' | 'structure' | undefined;
  };
  /** The chat model and embedder (default: `configProviders`, the `providers.*` keys under `AGENTM_LLM_*`/`AGENTM_EMBED_*`). */
  readonly providers?: (host: HostEnv, config: ConfigData, warn?: (message: string) => void) => ProviderSource;
  /** Told of degradations that lose nothing (a deprecated variable in use). Default: ignored. */
  readonly warn?: (message: string) => void;
  /** How the git origin URL is read (tests). */
  readonly gitRemote?: (projectRoot: string) => Promise<string | undefined>;
  /** The clock notes are dated by (default: now). */
  readonly now?: () => Date;
}

/**
 * The providers the config describes: `providers.chat.*` and `providers.embeddings.*`, each field
 * overridden by `AGENTM_LLM_*` / `AGENTM_EMBED_*` (DESIGN §8). The settings are resolved once, on first
 * use; deprecated variables are reported through `warn`, half a configuration is `ProviderConfigError`.
 */
export function configProviders(
  host: HostEnv,
  config: ConfigData,
  warn: (message: string) => void = () => undefined,
): ProviderSource {
  let resolved: ReturnType<typeof providersFrom> | undefined;
  const providers = () => {
    if (!resolved) {
      const settings = resolveProviderSettings({ env: host.env, config });
      for (const w of settings.warnings) warn(w);
      resolved = providersFrom(settings);
    }
    return resolved;
  };
  return {
    embedder: async () => providers().embedder,
    chat: async () => providers().chat,
  };
}

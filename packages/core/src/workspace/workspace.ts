import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { StorageBackend } from '../seam/backend.js';
import type { Locator } from '../seam/locator.js';
import { InvalidLocatorError } from '../seam/errors.js';
import { defaultLockRoot } from '../write-protocol/vault-lock.js';
import { builtinBackends } from '../backends/builtins.js';
import { readConfigTolerant, type ConfigData } from '../config/config-file.js';
import { processHost, type HostEnv } from '../config/host.js';
import { spacePath } from '../config/roots.js';
import { selectBackend, type SelectedBackend } from '../selection/select-backend.js';
import { probeProjectLocator, type ProjectResolution } from '../routing/resolve-project.js';
import type { ChatProvider } from '../providers/chat.js';
import type { EmbeddingProvider } from '../providers/embeddings.js';
import type { MemoryLayout } from '../memory/documents/layout.js';
import { memoryLayoutFromConfig } from '../memory/documents/layout-config.js';
import type { MemoryIndex } from '../memory/indexing/memory-index.js';
import type { ConsolidationProgress, ConsolidationReport } from '../memory/consolidation/consolidate.js';
// The note services (and YAML with them) are imported when a note is filed, not by a recall or a hook.
import type { ResolvedVocabulary } from '../memory/notes/resolve-vocabulary.js';
import type { EvolvedNote, EvolveNoteInput } from '../memory/notes/evolve.js';
import type { FiledNote, FileNoteInput, NoteFiling, NoteScope } from './note-services.js';
import type { PhaseRecallRequest, PhaseRecallResult } from '../memory/recall/phase-recall-shell.js';
import type { RecallQuery, RecallResult } from '../memory/recall/recall.js';
import type { FreshnessOptions } from './memory-services.js';
import type { HarnessServices } from './harness-services.js';
import type { CopyOptions, CopyReport } from './store-copy.js';
import type { DoctorCheck, DoctorOptions } from './doctor/check.js';
import type { HomePlanFiles } from './plan-home.js';
import type { PlanListing } from './plan-listing.js';
import type { PlanSwitch, StepUpdateOutcome, WorkspaceStepUpdate } from './plan-services.js';
import type { RecallServiceKey } from '../recall-service/client.js';
import { askServedRecall, servedIndexKey } from './served-recall.js';
import type { WorkspaceContext } from './context.js';
import { configProviders, type ProviderSource, type WorkspaceOptions } from './options.js';
import { resolveWorkspaceProject } from './workspace-project.js';

/**
 * One context's view of AgentM (DESIGN §2, second wave): built once per context — a repository for a
 * CLI run, a VS Code window, an Obsidian vault, an MCP server process — from the config, it owns the
 * store, layout and spaces, vocabulary, providers, the memory index, recall, consolidation, plan files
 * and the harness. Callers never pass the backend, layout or providers again (unstorage's
 * `createStorage({ driver })`). A config change means a new workspace: the host rebuilds it in one place.
 *
 * Opening is cheap: it reads the config and produces the backend (nothing else). Every service is lazy:
 * providers are made when a service needs one, the index is opened on the first recall, and the harness
 * is loaded (its modules imported) only when asked for — a hook that only recalls never pays for it.
 */
export class Workspace implements WorkspaceContext {
  /** Environment and home the config and roots were read through. */
  readonly host: HostEnv;
  /** The resolved `.agentm-config.json` (`{}` when absent). */
  readonly config: ConfigData;
  /** The store every service reads and writes through. */
  readonly backend: StorageBackend;
  /** How the store was chosen; undefined when the host brought its own backend. */
  readonly selection: SelectedBackend | undefined;
  /** The repository of this context, absolute; undefined when there is none. */
  readonly projectRoot: string | undefined;
  /** Where memories live under the store root (the configured `spaces`). */
  readonly layout: MemoryLayout;
  /** The memory space (config `spaces.memory`, default `memory`): where notes without a project go. */
  readonly memorySpace: string;
  /** Lock root of the vault and index locks. */
  readonly lockRoot: string;
  readonly #options: WorkspaceOptions;
  readonly #providers: ProviderSource;
  #project: Promise<ProjectResolution | undefined> | undefined;
  #embedder: Promise<EmbeddingProvider | undefined> | undefined;
  #chat: Promise<ChatProvider | undefined> | undefined;
  #index: Promise<MemoryIndex> | undefined;
  #harness: Promise<HarnessServices> | undefined;

  private constructor(
    options: WorkspaceOptions,
    parts: { host: HostEnv; config: ConfigData; backend: StorageBackend; selection: SelectedBackend | undefined },
  ) {
    this.#options = options;
    this.host = parts.host;
    this.config = parts.config;
    this.backend = parts.backend;
    this.selection = parts.selection;
    this.projectRoot = options.projectRoot === undefined ? undefined : resolve(options.projectRoot);
    this.layout = memoryLayoutFromConfig(parts.config);
    this.memorySpace = spacePath('memory', parts.config);
    this.lockRoot = options.lockRoot ?? defaultLockRoot(parts.host.env as NodeJS.ProcessEnv, parts.host.home);
    this.#providers = (options.providers ?? configProviders)(parts.host, parts.config, options.warn);
  }

  /**
   * Builds the workspace: reads the config and selects the store (explicit `storage.backend` →
   * `MEMORY_VAULT_PATH` → device-local, through the registry), or takes the backend the host brought.
   * Throws what selection throws (`StorageSelectionError`, `CapabilityMismatchError`): a store that cannot
   * be produced is loud, never a silent fall-back.
   */
  static async open(options: WorkspaceOptions = {}): Promise<Workspace> {
    const host = options.host ?? processHost();
    if (options.backend) {
      const config = await readConfigTolerant(host);
      return new Workspace(options, { host, config, backend: options.backend, selection: undefined });
    }
    const selection = await selectBackend({
      host,
      registry: options.registry ?? builtinBackends(),
      ...(options.createRoot !== undefined ? { createRoot: options.createRoot } : {}),
      ...(options.required ? { required: options.required } : {}),
      ...(options.deviceLocalRoot !== undefined ? { deviceLocalRoot: options.deviceLocalRoot } : {}),
      ...(options.lockRoot !== undefined ? { lockRoot: options.lockRoot } : {}),
    });
    return new Workspace(options, { host, config: selection.choice.config, backend: selection.backend, selection });
  }

  /** The protocol of the store (`vault`, `device-local`, …; `host` when the host brought its backend). */
  get protocol(): string {
    return this.selection?.protocol ?? 'host';
  }

  /** The store's directory on this machine (the memory root), when it has one. */
  get localRoot(): string | undefined {
    return this.backend.localRoot ?? this.selection?.root;
  }

  /**
   * A note's path as a person or an agent gives it (store-relative, or absolute inside the store's root)
   * as a store key. Throws `InvalidLocatorError` for an absolute path outside the store.
   */
  storeKey(path: string): string {
    if (!isAbsolute(path)) return path;
    const root = this.localRoot;
    const rel = root === undefined ? '..' : relative(root, path);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
      throw new InvalidLocatorError(
        path,
        `it is not inside the store ${root ?? `'${this.protocol}'`}; give the note's path relative to the store`,
      );
    return rel.split(sep).join('/');
  }

  /**
   * The filing vocabulary, resolved as agentm resolves its storage rules (`$AGENTM_STORAGE_RULES` →
   * `<memory root>/standards/storage-rules.md` → `<memory root>/../standards/…` → the shipped default,
   * config `memory.vocabulary` on top). The memory root is agentm's (from the environment and config),
   * or the store's own directory when the host brought the store (Obsidian's vault folder). Read on every
   * call, as agentm reads it on every save: a few small reads, and an edited rules file counts at once.
   * A rules file that exists but does not parse rejects with `StorageRulesError` naming it.
   */
  async vocabulary(): Promise<ResolvedVocabulary> {
    const { resolveVocabulary } = await import('../memory/notes/resolve-vocabulary.js');
    return resolveVocabulary({
      host: this.host,
      config: this.config,
      ...(this.selection === undefined ? { memoryRoot: this.localRoot } : {}),
    });
  }

  /**
   * The project of `projectRoot` (slug from `.harness/project.json`, `github.repo` or the git origin;
   * its folder probed in the projects spaces), resolved once. Undefined without a repository; a
   * repository without a slug resolves with `slug` undefined.
   */
  project(): Promise<ProjectResolution | undefined> {
    return (this.#project ??= resolveWorkspaceProject(this, this.#options.gitRemote));
  }

  /** The folder of project `slug` in the store: the first projects space where it exists, else the configured one. */
  async projectFolder(slug: string, backend: StorageBackend = this.backend): Promise<Locator> {
    return (await probeProjectLocator(backend, slug, this.config)).locator;
  }

  /** The embedding provider, made on first use (undefined: none configured). */
  embedder(): Promise<EmbeddingProvider | undefined> {
    return (this.#embedder ??= this.#providers.embedder());
  }

  /** The chat model, made on first use (undefined: none available). */
  chat(): Promise<ChatProvider | undefined> {
    return (this.#chat ??= this.#providers.chat());
  }

  /**
   * The memory index of this store (device-local, never in the vault), opened once, with the configured
   * layout and the embedder. Not refreshed: `recall` does that, or the host from its own watchers.
   */
  index(): Promise<MemoryIndex> {
    if (!this.#index) {
      const opening = this.openIndex();
      this.#index = opening;
      opening.catch(() => {
        if (this.#index === opening) this.#index = undefined; // the next call tries again
      });
    }
    return this.#index;
  }

  /**
   * Another handle on the same index directory (a rebuild over a cancellable backend, say); the shared
   * one catches up with `sync()`. Throws `MemoryArgumentError` when the store has no local root.
   */
  async openIndex(options: { backend?: StorageBackend } = {}): Promise<MemoryIndex> {
    const { openWorkspaceIndex } = await import('./memory-services.js');
    return openWorkspaceIndex(this, this.#options.index ?? {}, options.backend ?? this.backend);
  }

  /**
   * Recall (BM25, plus cosine when an embedder is configured, blended with recency) after bringing the
   * index up to date (`refresh: false` uses a loaded index as it is; with `index.revalidate`, from the
   * change log and the folders, see `recallIn`). Provider failures degrade to lexical recall and come
   * back as warnings, with the refresh's.
   */
  async recall(query: RecallQuery, options: Omit<FreshnessOptions, 'revalidate'> = {}): Promise<RecallResult> {
    const service = this.#options.index?.service;
    if (service !== undefined) {
      const served = await askServedRecall(this, this.#options.index, query, service.version);
      if (served) return served;
    }
    const { recallIn } = await import('./memory-services.js');
    return recallIn(this, await this.index(), query, { ...options, revalidate: this.#options.index?.revalidate });
  }

  /** What identifies the index a recall server of AgentM `version` must hold (see recall-service/client.ts). */
  recallServiceKey(version: string): RecallServiceKey | undefined {
    return servedIndexKey(this, this.#options.index, version);
  }

  /**
   * The index brought up to date as a recall would (see `recallIn`), or undefined when it is not built
   * yet (nothing is built here: a session start must not wait for a first build).
   */
  async upToDateIndex(): Promise<MemoryIndex | undefined> {
    const index = await this.index();
    if (index.loadStatus !== 'loaded') return undefined;
    const { upToDate } = await import('./memory-services.js');
    await upToDate(this, index, { revalidate: this.#options.index?.revalidate });
    return index;
  }

  /**
   * Phase recall (always-load notes plus the best candidates for the phase, within its budget, notes aged
   * by the configured half-life) after bringing the index up to date (`refresh: false` uses a loaded
   * index as it is).
   */
  async phaseRecall(
    request: Omit<PhaseRecallRequest, 'env' | 'readBody'>,
    options: { readonly refresh?: boolean } = {},
  ): Promise<PhaseRecallResult> {
    const { phaseRecallIn } = await import('./memory-services.js');
    return phaseRecallIn(this, await this.index(), request, {
      ...options,
      revalidate: this.#options.index?.revalidate,
    });
  }

  /**
   * Where a note of `scope` lands (see `noteFiling`): the repository's project folder by default, the
   * memory space for `global` or without a project, an explicit group as given.
   */
  async noteFiling(input: { readonly group?: string; readonly scope?: NoteScope } = {}): Promise<NoteFiling> {
    const { noteFiling } = await import('./note-services.js');
    return noteFiling(this, input);
  }

  /** A note as `saveNote` would write it (validation, target, filing), without writing. Rejects with `NoteError`s. */
  async buildNote(input: FileNoteInput): Promise<FiledNote> {
    const { buildFiledNote } = await import('./note-services.js');
    return buildFiledNote(this, input, this.#options.now);
  }

  /**
   * Saves a new note in agentm's format, filed by the one rule of every front end (`noteFiling`: under
   * the repository's project unless `scope: 'global'` or a group says otherwise); never overwrites
   * (`NoteExistsError`). The result says where it was filed.
   */
  async saveNote(input: FileNoteInput): Promise<FiledNote> {
    const { saveFiledNote } = await import('./note-services.js');
    return saveFiledNote(this, input, this.#options.now);
  }

  /** Supersedes a note: archives it under the memory space and writes the new body. */
  async evolveNote(input: EvolveNoteInput): Promise<EvolvedNote> {
    const { evolveWorkspaceNote } = await import('./note-services.js');
    return evolveWorkspaceNote(this, input, this.#options.now);
  }

  /**
   * Consolidates one project's new episodes into beliefs with the chat model and embedder, when there
   * are, through `backend` (default the workspace's; VS Code passes a cancellable one).
   */
  async consolidate(options: {
    project: string;
    dryRun?: boolean;
    backend?: StorageBackend;
    onProgress?: ((progress: ConsolidationProgress) => void) | undefined;
  }): Promise<ConsolidationReport> {
    const { consolidateIn } = await import('./consolidation-services.js');
    return consolidateIn(this, options);
  }

  /** Every project with a `_harness/` folder in a projects space, each slug once, sorted. */
  async projectsWithHarness(): Promise<string[]> {
    const { projectsWithHarness } = await import('./consolidation-services.js');
    return projectsWithHarness(this);
  }

  /** Writes the store into `folder` as a vault's memory root, byte for byte (`exportStore`). */
  async exportTo(folder: string, options: CopyOptions = {}): Promise<CopyReport> {
    const { exportStore } = await import('./store-copy.js');
    return exportStore(this, folder, options);
  }

  /** Loads a vault's memory root into the store, idempotently and resumably (`importStore`). */
  async importFrom(folder: string, options: CopyOptions = {}): Promise<CopyReport> {
    const { importStore } = await import('./store-copy.js');
    return importStore(this, folder, options);
  }

  /** Releases what the store holds open (a database's connections); the workspace may be used again after. */
  async close(): Promise<void> {
    await this.backend.close?.();
  }

  /** The harness services (plan files, roles, the dispatcher, runs, planning), loaded on first use. */
  harness(): Promise<HarnessServices> {
    return (this.#harness ??= import('./harness-services.js').then(({ HarnessServices }) => new HarnessServices(this)));
  }

  /**
   * The plans of the repository's project — or, by `project` slug, of that project's `_harness/` in the
   * store (Obsidian's vault, another project) — as every front end lists them: PLAN.md then
   * PLAN-<name>.md, each titled by its goal, the active one marked; conflict copies never listed.
   * `summaries: false` reads names only (a hook's budget). Throws `NoPlanHomeError` with neither.
   */
  async listPlans(options: { readonly project?: string; readonly summaries?: boolean } = {}): Promise<PlanListing> {
    const { listHomePlans, planHome } = await import('./plan-services.js');
    return listHomePlans(this, await planHome(this, options.project), options);
  }

  /** Makes plan `name` the repository's active plan (`.harness/active-plan`); see `switchPlan`. */
  async switchPlan(name: string): Promise<PlanSwitch> {
    const { switchPlan } = await import('./plan-services.js');
    return switchPlan(this, name);
  }

  /** Records progress on one step under the plan's lock and CAS, by the state machine; see `updatePlanStep`. */
  async updateStep(
    update: WorkspaceStepUpdate,
    options: { readonly actor: string; readonly secrets?: readonly string[] },
  ): Promise<StepUpdateOutcome> {
    const { updatePlanStep } = await import('./plan-services.js');
    return updatePlanStep(this, update, options);
  }

  /**
   * The files of plan `plan` (default: the active one) of the repository's project, or of `project`'s
   * folder in the store, routed as every writer routes them and redacting secrets from the log.
   */
  async planFiles(
    plan?: string,
    options: { readonly project?: string; readonly secrets?: readonly string[] } = {},
  ): Promise<HomePlanFiles> {
    const { homePlanFilesFor, planHome } = await import('./plan-services.js');
    return homePlanFilesFor(this, await planHome(this, options.project), plan, options);
  }

  /** Every check of the doctor for this workspace, in order (see `runDoctor`); never throws for a misconfiguration. */
  async doctor(options: DoctorOptions = {}): Promise<DoctorCheck[]> {
    const { runDoctor } = await import('./doctor/doctor.js');
    return runDoctor({ host: this.host, workspace: this }, options);
  }

  /**
   * The doctor for a context that may not open (a store that cannot be produced): opens the workspace
   * read-only (`createRoot: false`) and runs every check; when opening throws, the storage check says
   * why and the checks that need a store are left out. Never throws for a misconfiguration.
   */
  static async doctor(open: WorkspaceOptions, options: DoctorOptions = {}): Promise<DoctorCheck[]> {
    const { runDoctor } = await import('./doctor/doctor.js');
    const host = open.host ?? processHost();
    let ws: Workspace;
    try {
      ws = await Workspace.open({ ...open, host, createRoot: false });
    } catch (error) {
      return runDoctor({ host, workspace: undefined, openError: error }, options);
    }
    return runDoctor({ host, workspace: ws }, options);
  }
}

/** Builds a workspace (see `Workspace.open`). */
export function openWorkspace(options: WorkspaceOptions = {}): Promise<Workspace> {
  return Workspace.open(options);
}

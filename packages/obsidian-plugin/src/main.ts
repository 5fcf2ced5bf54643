import { Events, Notice, Plugin } from 'obsidian';
import { inspectLock, LOCK_STALE_MS } from '@agentm/core/write-protocol';
import { registerServiceCommands } from './commands/service-commands.js';
import { createCoreServices } from './core-services/create.js';
import { ConflictIndex } from './conflicts/conflict-index.js';
import { CONFLICTS_VIEW_TYPE, ConflictsView } from './conflicts/conflicts-view.js';
import { displayError } from './errors.js';
import { defaultHost, type PluginHost } from './host.js';
import { fileSystemAdapter } from './disk.js';
import { LockIndicator } from './lock-indicator.js';
import { openWhenIndexed } from './open-note.js';
import { PLAN_VIEW_TYPE, PlanView } from './plans/plan-view.js';
import { RELATED_VIEW_TYPE, RelatedView } from './related/related-view.js';
import { StepFocus } from './related/step-focus.js';
import { revealView } from './reveal-view.js';
import { resolveMemoryRoot } from './memory-root.js';
import type { AgentMServices } from './services.js';
import { AgentMSettingTab } from './settings-tab.js';
import { DEFAULT_SETTINGS, parseSettings, type AgentMSettings } from './settings.js';
import { buildVaultContext, type VaultContext } from './vault-context.js';
import { joinVaultPath } from './vault-paths.js';
import type { WriteOutcome } from './write/agent-writer.js';

/**
 * AgentM inside Obsidian: the in-vault `vault` backend under the agentm lock, the conflicts view, the
 * lock status and the commands. `onload` only registers (no vault scan); the work starts on layout ready.
 */
export default class AgentMPlugin extends Plugin {
  override settings: AgentMSettings = { ...DEFAULT_SETTINGS };
  /** The machine the plugin runs on (lock root, device name, clock…); tests replace it before loading. */
  host: PluginHost = defaultHost();
  /** The plan step the plan view has selected (the related memories view follows it). */
  readonly stepFocus = new StepFocus();
  /** Emits `changed` when the memory-root context is rebuilt (another memory root, another lock wait). */
  readonly contextChanges = new Events();
  #context: VaultContext | undefined;
  #conflicts: ConflictIndex | undefined;
  #indicator: LockIndicator | undefined;
  #started: Promise<void> | undefined;
  #generation = 0;
  #services: AgentMServices | undefined;
  #builtFrom: string | undefined;

  override async onload(): Promise<void> {
    this.settings = parseSettings(await this.loadData());
    this.registerView(
      CONFLICTS_VIEW_TYPE,
      (leaf) => new ConflictsView(leaf, { index: () => this.#conflicts, resolver: () => this.#context?.resolver }),
    );
    this.registerView(
      RELATED_VIEW_TYPE,
      (leaf) =>
        new RelatedView(leaf, {
          services: () => (this.#context ? this.#services : undefined),
          focus: this.stepFocus,
          contextChanges: this.contextChanges,
          debounceMs: this.host.viewDebounceMs,
          open: (path) => openWhenIndexed(this, path),
        }),
    );
    this.registerView(
      PLAN_VIEW_TYPE,
      (leaf) =>
        new PlanView(leaf, {
          services: () => (this.#context ? this.#services : undefined),
          focus: this.stepFocus,
          contextChanges: this.contextChanges,
          debounceMs: this.host.viewDebounceMs,
          actor: () => this.host.person,
          vaultPath: (key) => (this.#context ? joinVaultPath(this.#context.folder, key) : undefined),
          open: (path) => openWhenIndexed(this, path),
        }),
    );
    this.addRibbonIcon('list-checks', 'Open AgentM plans', () => void this.openPlanView());
    this.addRibbonIcon('git-compare', 'Open AgentM conflicts', () => void this.openConflictsView());
    // Each callback returns its work's promise (Obsidian ignores it; it says when the command is done).
    this.addCommand({ id: 'open-plan-view', name: 'Open plans', callback: () => this.openPlanView() });
    this.addCommand({
      id: 'open-conflicts-view',
      name: 'Open conflicts view',
      callback: () => this.openConflictsView(),
    });
    this.addCommand({
      id: 'open-related-memories',
      name: 'Open related memories',
      callback: () => this.openRelatedView(),
    });
    const status = this.addStatusBarItem();
    this.#indicator = new LockIndicator(
      status,
      async () =>
        this.#context ? inspectLock(this.#context.backend.root, { lockRoot: this.host.lockRoot }) : undefined,
      { staleMs: LOCK_STALE_MS, fallbackPollMs: this.host.lockPollMs },
    );
    this.register(() => this.#indicator?.stop());
    this.registerDomEvent(status, 'click', () => void this.openConflictsView());
    this.addSettingTab(new AgentMSettingTab(this.app, this));
    this.#services = this.createServices();
    if (this.#services) registerServiceCommands(this, this.#services);
    this.#logVaultEdits();
    this.app.workspace.onLayoutReady(() => {
      this.#started = this.#start();
    });
  }

  /**
   * The core services behind the save, recall, active plan and doctor commands (core's notes, memory
   * engine, plan rules and storage preview over the in-vault backend), or `undefined` (then those commands
   * are not registered). Builds objects only: nothing is read or opened until a command runs.
   */
  protected createServices(): AgentMServices | undefined {
    return createCoreServices({
      app: this.app,
      owner: this,
      host: () => this.host,
      settings: () => this.settings,
      context: () => this.#requireContext(),
      conflictCount: () => this.#conflicts?.entries().length,
    });
  }

  /**
   * Notes edited in Obsidian go into the store's change log, like AgentM's own writes: an agent's next
   * recall or prompt hook (a new process, no walk of the vault) finds the edit at once, where an edit
   * made without this plugin waits for the background walk.
   */
  #logVaultEdits(): void {
    const record = (path: string) => this.#context?.backend.recordChange(path);
    this.registerEvent(this.app.vault.on('create', (file) => record(file.path)));
    this.registerEvent(this.app.vault.on('modify', (file) => record(file.path)));
    this.registerEvent(this.app.vault.on('delete', (file) => record(file.path)));
    this.registerEvent(
      this.app.vault.on('rename', (file, oldPath) => {
        record(oldPath);
        record(file.path);
      }),
    );
  }

  override onunload(): void {
    this.#generation++; // a rebuild still reading agentm's config must not register anything after unload
  }

  /** Resolves once the layout-ready start-up (backend registration, first conflict scan) has finished. */
  whenStarted(): Promise<void> {
    return this.#started ?? Promise.resolve();
  }

  /** The services behind the commands (built in `onload`; they open nothing until used). */
  get services(): AgentMServices | undefined {
    return this.#services;
  }

  /** The current memory root context (backend, writer, resolver), once started. */
  get context(): VaultContext | undefined {
    return this.#context;
  }

  get conflicts(): ConflictIndex | undefined {
    return this.#conflicts;
  }

  get lockIndicator(): LockIndicator | undefined {
    return this.#indicator;
  }

  /**
   * Writes an agent file (vault path) under the lock with a CAS against `expectHash`. If the CAS is lost,
   * the text is kept as an AgentM conflict copy beside it and the user is told; nothing is overwritten.
   */
  async writeAgentFile(path: string, content: string, expectHash?: string | null): Promise<WriteOutcome> {
    const context = this.#requireContext();
    const outcome = await context.writer.writeOrKeepBoth(path, content, expectHash);
    if (outcome.kind === 'conflict-copy') {
      this.#conflicts?.announce(outcome.copyPath);
      new Notice(
        `AgentM: "${path}" changed on disk while it was being saved, so your version was kept as "${outcome.copyPath}". Open the conflicts view to compare and resolve.`,
        0,
      );
      void this.#conflicts?.refresh();
    }
    return outcome;
  }

  async openConflictsView(): Promise<void> {
    await revealView(this.app, CONFLICTS_VIEW_TYPE);
  }

  async openPlanView(): Promise<void> {
    await revealView(this.app, PLAN_VIEW_TYPE);
  }

  async openRelatedView(): Promise<void> {
    await revealView(this.app, RELATED_VIEW_TYPE);
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.settings);
    if (!this.app.workspace.layoutReady) return;
    try {
      // Only the memory root and the lock wait shape the context; other settings are read when used.
      if (this.#builtFrom !== this.#contextKey()) await this.#rebuild();
      await this.#conflicts?.refresh();
    } catch (error) {
      displayError(error, 'the new settings could not be applied');
    }
  }

  async #start(): Promise<void> {
    try {
      await this.#rebuild();
    } catch (error) {
      displayError(error, 'could not start');
      return;
    }
    this.#conflicts = new ConflictIndex(
      this.app,
      this.host,
      () => this.settings,
      (path) => this.#requireContext().writer.currentHash(path),
    );
    this.#conflicts.start(this);
    await this.#conflicts.refresh();
  }

  /**
   * (Re)builds the memory-root context (the setting, else agentm's config or MEMORY_VAULT_PATH when they
   * name a folder of this vault, else the vault root), with its own backend registry (the in-vault backend
   * as `vault`); the services' workspace follows the new context. When rebuilds overlap (quick setting
   * changes), the last one wins.
   */
  async #rebuild(): Promise<void> {
    const generation = ++this.#generation;
    const key = this.#contextKey();
    const memoryRoot = await resolveMemoryRoot(
      this.settings.memoryRoot,
      fileSystemAdapter(this.app).getBasePath(),
      this.host.hostEnv,
    );
    if (generation !== this.#generation) return;
    this.#builtFrom = key;
    this.#context = buildVaultContext(this.app, memoryRoot, this.settings, this.host, (waiting, status) =>
      this.#indicator?.setWaiting(waiting, status),
    );
    this.contextChanges.trigger('changed');
    await this.#indicator?.follow(this.#context.backend.lockDir);
  }

  #contextKey(): string {
    return JSON.stringify([this.settings.memoryRoot.trim(), this.settings.lockWaitSeconds]);
  }

  #requireContext(): VaultContext {
    if (!this.#context)
      throw new Error('AgentM has not started yet: wait until Obsidian has finished loading the vault');
    return this.#context;
  }
}

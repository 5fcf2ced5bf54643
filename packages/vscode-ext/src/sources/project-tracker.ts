import { basename, dirname, join, relative, isAbsolute } from 'node:path';
import * as vscode from 'vscode';
import { configFilePath, type ProjectResolution } from '@agentm/core/config';
import { stateLocation, type StateLocation } from '@agentm/core/harness';
import { Workspace, type HostEnv, type WorkspaceOptions } from '@agentm/core';
import { isTempName } from '@agentm/core/write-protocol';
import { Debouncer } from './debounce';
import { currentHost } from './host';
import { vscodeProviders } from './providers';

/** What the extension works on: core's workspace of this window and the project of its first folder. */
export interface WorkspaceState {
  readonly host: HostEnv;
  /** The first workspace folder (the repo), when one is open on disk. */
  readonly folder: string | undefined;
  /** Core's workspace: the selected store, its layout and spaces, providers, index, recall, plans. */
  readonly workspace: Workspace;
  /** The store root on disk: the vault's memory root, or the device-local root. */
  readonly memoryRoot: string | undefined;
  /** The project, when the folder resolves to one (`.harness/project.json`, `github.repo`, git origin). */
  readonly project: ProjectResolution | undefined;
  /** Where the project's harness state lives. */
  readonly location: StateLocation | undefined;
  /** Why there is no project, naming the fix. */
  readonly noProject: string | undefined;
}

/** One watched place, for the inspect command (tests check that the watch set follows the project). */
export interface WatchedPlace {
  readonly base: string;
  readonly pattern: string;
}

const PROJECT_FILES = new Set(['project.json', '.project-mode']);

interface Watch extends WatchedPlace, vscode.Disposable {
  onEvent: (uri: vscode.Uri) => void;
}

const inside = (path: string, dir: string) => {
  const rel = relative(dir, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Builds core's workspace for the window (store, project, state location) once, and builds it again —
 * here, and only here — when something it depends on changes: `agentm.vault.*` or `agentm.providers.*`
 * settings, the provider key, VS Code's language models, the workspace folders, agentm's `.agentm-config.json`, or the repo's
 * `.harness/project.json` / `.project-mode`. File watchers (VS Code's,
 * with `Uri.file` bases, so a vault outside the workspace is watched too) cover the config file, the repo's
 * `.harness/` and the memory root; events are debounced. When the resolution changes, watchers no longer
 * wanted are disposed and new ones started (kept ones stay, so no event is missed while one starts). No
 * polling.
 */
export class ProjectTracker implements vscode.Disposable {
  #current: Promise<WorkspaceState> | undefined;
  #key: string | undefined;
  #watches = new Map<string, Watch>();
  #stateDir: string | undefined;
  #memoryRoot: string | undefined;
  #disposed = false;
  readonly #stateChanged = new vscode.EventEmitter<void>();
  readonly #memoryChanged = new vscode.EventEmitter<readonly vscode.Uri[]>();
  readonly #workspaceChanged = new vscode.EventEmitter<void>();
  readonly #resolved = new vscode.EventEmitter<void>();
  readonly #storeKeys = new vscode.EventEmitter<readonly string[] | undefined>();
  /** The store's own change feed we listen to (a database: LISTEN/NOTIFY), and how to stop. */
  #feed: { readonly owner: unknown; readonly stop: () => void } | undefined;
  /** A PLAN, progress or marker file changed (debounced). */
  readonly onDidChangeState = this.#stateChanged.event;
  /** Notes under the memory root changed (debounced, with every changed file). */
  readonly onDidChangeMemory = this.#memoryChanged.event;
  /** The resolution changed: another project, backend or memory root. */
  readonly onDidChangeWorkspace = this.#workspaceChanged.event;
  /** The workspace was resolved again (after a config, settings or project file change), changed or not. */
  readonly onDidResolve = this.#resolved.event;
  /**
   * Keys a store without a folder on disk (a database) says changed, from any machine; `undefined` when
   * changes may have been missed (its listener reconnected): re-read everything.
   */
  readonly onDidChangeStoreKeys = this.#storeKeys.event;
  readonly #state = new Debouncer<void>(() => this.#stateChanged.fire());
  readonly #memory = new Debouncer<vscode.Uri>((uris) => this.#memoryChanged.fire(uris));
  readonly #invalidate = new Debouncer<void>(() => this.invalidate());
  readonly #subscriptions: vscode.Disposable[];

  constructor(private readonly context: TrackerContext) {
    this.#subscriptions = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('agentm.vault') || e.affectsConfiguration('agentm.providers')) this.invalidate();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.invalidate()),
      context.secrets.onDidChange(() => this.invalidate()),
      // The workspace chooses its chat model once: a language model that appears (or goes) makes a new one.
      ...(typeof vscode.lm?.onDidChangeChatModels === 'function'
        ? [vscode.lm.onDidChangeChatModels(() => this.invalidate())]
        : []),
    ];
  }

  /** The current resolution. Throws core's typed error when the configured store cannot be produced. */
  current(): Promise<WorkspaceState> {
    if (this.#current) return this.#current;
    const host = currentHost();
    const resolving = resolveWorkspace(host, this.context);
    this.#current = resolving;
    // Only the latest resolution is adopted: an older one finishing late must not bring back its watchers.
    resolving.then(
      (ws) => this.#current === resolving && this.#adopt(ws, host),
      () => this.#current === resolving && this.#adopt(undefined, host),
    );
    return resolving;
  }

  /** Forgets the resolution; the next `current()` resolves again (and the views are told). */
  invalidate(): void {
    if (this.#disposed) return;
    this.#current = undefined;
    void this.current().catch(() => undefined);
  }

  #adopt(ws: WorkspaceState | undefined, host: HostEnv): void {
    if (this.#disposed) return;
    const config = configFilePath(host);
    const folder = ws?.folder ?? firstFolder();
    const key = JSON.stringify([
      config,
      folder,
      ws?.workspace.protocol,
      ws?.memoryRoot,
      ws?.project?.slug,
      ws?.location?.kind === 'backend' ? ws.location.path : ws?.location?.dir,
    ]);
    // Every re-resolution may follow a marker, project or config edit: the plan view and the status bar
    // look again even when the outcome is the one seen before (the doctor may have shown another since).
    this.#state.add();
    this.#resolved.fire();
    this.#followFeed(ws);
    if (key === this.#key) return;
    this.#key = key;
    this.#stateDir = ws?.location?.kind === 'backend' ? ws.location.path : undefined;
    this.#memoryRoot = ws?.memoryRoot;
    const wanted: Array<[string, string, (uri: vscode.Uri) => void]> = [
      [dirname(config), basename(config), () => this.#invalidate.add()],
    ];
    // `.harness` itself too: a watcher may miss files written right after their directory appears.
    if (folder)
      wanted.push([
        folder,
        '{.harness,.harness/*}',
        (uri) =>
          basename(uri.fsPath) === '.harness' || PROJECT_FILES.has(basename(uri.fsPath))
            ? this.#invalidate.add()
            : this.#state.add(),
      ]);
    if (ws?.memoryRoot) wanted.push([ws.memoryRoot, '**', (uri) => this.#onMemoryEvent(uri)]);
    // Watchers that stay wanted are kept (re-creating one would miss events while it starts).
    const next = new Map<string, Watch>();
    for (const [base, pattern, onEvent] of wanted) {
      const id = `${base}\0${pattern}`;
      const kept = this.#watches.get(id);
      if (kept) {
        kept.onEvent = onEvent;
        next.set(id, kept);
      } else next.set(id, this.#watch(base, pattern, onEvent));
    }
    for (const [id, watch] of this.#watches) if (!next.has(id)) watch.dispose();
    this.#watches = next;
    this.#workspaceChanged.fire();
  }

  /**
   * A store with a change feed (no files to watch): its notifications drive the plan views (a key under
   * the state folder) and the index (every key), as watchers do for a vault. Follows the workspace's
   * backend: a rebuilt workspace's feed replaces the old one.
   */
  #followFeed(ws: WorkspaceState | undefined): void {
    const backend = ws?.workspace.backend;
    const feed = backend?.localRoot === undefined ? backend?.changeFeed : undefined;
    if (this.#feed?.owner === backend && backend !== undefined) return;
    this.#feed?.stop();
    this.#feed = undefined;
    if (!feed || !backend) return;
    const stateDir = ws?.location?.kind === 'backend' ? `${ws.location.dir.key}/` : undefined;
    this.#feed = {
      owner: backend,
      stop: feed.subscribe((signal) => {
        if ('resync' in signal || (stateDir && signal.keys.some((k) => k.startsWith(stateDir)))) this.#state.add();
        this.#storeKeys.fire('resync' in signal ? undefined : signal.keys);
      }),
    };
  }

  /** Any file or folder under the memory root: notes go to the index, anything under the state folder to the plans. */
  #onMemoryEvent(uri: vscode.Uri): void {
    const path = uri.fsPath;
    if (this.#stateDir && inside(path, this.#stateDir)) this.#state.add();
    if (!this.#memoryRoot || !inside(path, this.#memoryRoot) || isTempName(basename(path))) return;
    this.#memory.add(uri);
  }

  #watch(base: string, pattern: string, onEvent: (uri: vscode.Uri) => void): Watch {
    const watcher = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(base), pattern),
    );
    const watch: Watch = { base, pattern, onEvent, dispose: () => disposable.dispose() };
    const fire = (uri: vscode.Uri) => watch.onEvent(uri);
    const disposable = vscode.Disposable.from(
      watcher,
      watcher.onDidCreate(fire),
      watcher.onDidChange(fire),
      watcher.onDidDelete(fire),
    );
    return watch;
  }

  /** The options the next workspace is opened with (the doctor's, when the tracker cannot open one). */
  openOptions(): WorkspaceOptions {
    return workspaceOptions(currentHost(), this.context);
  }

  /** Where the tracker watches now. */
  get watched(): readonly WatchedPlace[] {
    return [...this.#watches.values()].map(({ base, pattern }) => ({ base, pattern }));
  }

  dispose(): void {
    this.#disposed = true;
    this.#feed?.stop();
    this.#feed = undefined;
    for (const watch of this.#watches.values()) watch.dispose();
    this.#watches.clear();
    for (const d of [this.#state, this.#memory, this.#invalidate, ...this.#subscriptions]) d.dispose();
    for (const e of [this.#stateChanged, this.#memoryChanged, this.#workspaceChanged, this.#resolved, this.#storeKeys])
      e.dispose();
  }
}

function firstFolder(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return folder?.scheme === 'file' ? folder.fsPath : undefined;
}

/** What the tracker builds workspaces with: where the index lives, and the secrets the provider key is in. */
export interface TrackerContext {
  /** The extension's global storage folder: the memory index lives under `<it>/index`. */
  readonly storageDir: string;
  readonly secrets: vscode.SecretStorage;
}

/**
 * Core's workspace for the window (read-only selection: no root is created; the index in the extension's
 * global storage; this window's providers), then the folder's project and its state location.
 */
async function resolveWorkspace(host: HostEnv, context: TrackerContext): Promise<WorkspaceState> {
  const folder = firstFolder();
  const workspace = await Workspace.open(workspaceOptions(host, context));
  const base = { host, folder, workspace, memoryRoot: workspace.localRoot };
  if (!folder)
    return {
      ...base,
      project: undefined,
      location: undefined,
      noProject: 'no folder is open; open the repository of a project',
    };
  const project = (await workspace.project())!; // a folder always resolves, with or without a slug
  if (project.slug === undefined) {
    const fix = `add .harness/project.json with {"vault_project": "<slug>"} to ${folder}, or give the repository a git remote origin`;
    return { ...base, project: undefined, location: undefined, noProject: `no AgentM project in ${folder}: ${fix}` };
  }
  return { ...base, project, location: await stateLocation(project), noProject: undefined };
}

/**
 * How the window's workspace is opened (read-only selection: no root is created; the index in the
 * extension's global storage; this window's providers). The doctor opens it the same way when the
 * tracker cannot (a store that cannot be produced), to say why.
 */
export function workspaceOptions(host: HostEnv, context: TrackerContext): WorkspaceOptions {
  return {
    host,
    projectRoot: firstFolder(),
    createRoot: false,
    index: { root: join(context.storageDir, 'index') },
    providers: vscodeProviders(context.secrets),
  };
}

/** The file of a store locator key under the memory root. */
export function memoryFile(memoryRoot: string, key: string): vscode.Uri {
  return vscode.Uri.file(join(memoryRoot, ...key.split('/')));
}

import { Component, debounce, type Events, type TAbstractFile, type WorkspaceLeaf } from 'obsidian';
import type { PlanDetail, PlanHandle } from '@agentm/core';
import type { StepSummary } from '@agentm/core/harness';
import type { StepFocus } from '../related/step-focus.js';
import type { AgentMServices, PlanBoard } from '../services.js';
import { DrawnView } from '../ui/drawn-view.js';
import { renderPlanCard } from './plan-card.js';
import { runPlanAction, runStepAction, type PlanAction, type StepAction } from './plan-actions.js';

export const PLAN_VIEW_TYPE = 'agentm-plans';

/** Progress entries shown under an expanded plan. */
export const RECENT_ENTRIES = 8;

/** What the view needs from the plugin. */
export interface PlanViewDeps {
  services(): AgentMServices | undefined;
  readonly focus: StepFocus;
  /** Emits `changed` when the plugin's memory-root context is rebuilt: read again. */
  readonly contextChanges: Events;
  /** How long vault events on the plans settle before the view reads them again. */
  readonly debounceMs: number;
  /** Who the view's actions are logged as. */
  actor(): string;
  /** A plan file's vault path from its store key (the memory root folder joined). */
  vaultPath(key: string): string | undefined;
  open(path: string): Promise<unknown>;
}

/** An expanded plan as drawn: its handle, and what was read (the hash its actions hold to). */
interface Shown {
  readonly handle: PlanHandle;
  readonly detail: PlanDetail | undefined;
}

/**
 * The current project's plans, as core lists and reads them: each plan's title, status and counts; an
 * expanded one with its steps (status icon, dependencies, attempt, failure reason, actions) and newest
 * progress entries. Live: vault events inside the project's `_harness/` folder (agents writing) and a
 * change of the active note's project read the plans again after a debounce — no polling. Every action
 * goes through core's transitions held to the plan as drawn; a plan that changed since is refused and
 * drawn again, never written over. Obsidian cannot see which plan a repository has active, so the first
 * open plan is expanded until you choose.
 */
export class PlanView extends DrawnView {
  override icon = 'list-checks';
  #board: PlanBoard | undefined;
  #shown = new Map<string, Shown>();
  /** Expanded plan names by project; a project not in the map gets the default. */
  #expanded = new Map<string, Set<string>>();
  #selected: string | undefined;
  #busy = false;
  #action: Promise<void> = Promise.resolve();
  #reads = 0;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly deps: PlanViewDeps,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return PLAN_VIEW_TYPE;
  }

  getDisplayText(): string {
    return 'AgentM plans';
  }

  /** How many times the plans have been read (for tests: events, not a timer, cause reads). */
  get reads(): number {
    return this.#reads;
  }

  /** Resolves when the latest action started from this view has settled (and the view was drawn again). */
  async actionSettled(): Promise<void> {
    await this.#action;
    await this.rendered();
  }

  protected override async onOpen(): Promise<void> {
    const later = debounce(() => this.#requestRender(), this.deps.debounceMs, true);
    this.register(() => later.cancel());
    const inPlans = (path: string) => {
      const folder = this.#board?.folder;
      return folder !== undefined && (path === folder || path.startsWith(`${folder}/`));
    };
    const changed = (file: TAbstractFile, oldPath?: string) => {
      if (inPlans(file.path) || (oldPath !== undefined && inPlans(oldPath))) later();
    };
    this.registerEvent(this.app.vault.on('create', (file) => changed(file)));
    this.registerEvent(this.app.vault.on('modify', (file) => changed(file)));
    this.registerEvent(this.app.vault.on('delete', (file) => changed(file)));
    this.registerEvent(this.app.vault.on('rename', (file, oldPath) => changed(file, oldPath)));
    // Another note may belong to another project; another memory root holds other plans.
    this.registerEvent(this.app.workspace.on('file-open', () => later()));
    this.registerEvent(this.deps.contextChanges.on('changed', () => this.#requestRender()));
    this.#requestRender();
  }

  #requestRender(): void {
    this.requestDraw((current) => this.#render(current), 'could not show the plans');
  }

  async #render(current: () => boolean): Promise<void> {
    const services = this.deps.services();
    const board = services ? await services.planBoard() : undefined;
    this.#reads++;
    const shown = new Map<string, Shown>();
    if (services && board?.project !== undefined) {
      for (const name of this.#expandedIn(board)) {
        const handle = await services.openPlan(board.project, name);
        shown.set(name, { handle, detail: await handle.read({ recent: RECENT_ENTRIES }) });
      }
    }
    if (!current()) return;
    this.#board = board;
    this.#shown = shown;
    this.#paint(board);
  }

  /** The plans expanded in `board`'s project: the user's choice, else the first open plan (else the first). */
  #expandedIn(board: PlanBoard): Set<string> {
    const project = board.project ?? '';
    const known = this.#expanded.get(project);
    if (known) return known;
    const first =
      board.plans.find((p) => !['done', 'failed', 'cancelled'].includes(p.status ?? 'open')) ?? board.plans[0];
    return new Set(first ? [first.name] : []);
  }

  #paint(board: PlanBoard | undefined): void {
    const draw = new Component();
    const root = createDiv({ cls: 'agentm-plans' });
    const header = root.createDiv({ cls: 'agentm-plans-header' });
    header.createSpan({
      text: !board ? 'AgentM is starting…' : board.project ? `Plans of ${board.project}` : 'No current project',
    });
    const refresh = header.createEl('button', { text: 'Refresh' });
    draw.registerDomEvent(refresh, 'click', () => this.#requestRender());
    if (board?.reason) root.createDiv({ cls: 'agentm-muted', text: capitalize(board.reason) });
    for (const listed of board?.plans ?? []) {
      const shown = this.#shown.get(listed.name);
      renderPlanCard(
        root,
        { listed, detail: shown?.detail, selected: this.#selected, busy: this.#busy },
        {
          toggle: () => this.#toggle(board!, listed.name),
          select: (step) => this.#select(shown, step),
          step: (step, action) => this.#stepAction(shown, step, action),
          plan: (action) => this.#planAction(shown, action),
          open: () => void this.#openFile(shown),
        },
        draw,
      );
    }
    this.show(root, draw);
  }

  #toggle(board: PlanBoard, name: string): void {
    const expanded = new Set(this.#expandedIn(board));
    if (!expanded.delete(name)) expanded.add(name);
    this.#expanded.set(board.project ?? '', expanded);
    this.#requestRender();
  }

  #select(shown: Shown | undefined, step: StepSummary): void {
    const files = shown?.handle.files;
    const path = files && this.deps.vaultPath(files.planLabel);
    const progressPath = files && this.deps.vaultPath(files.progressLabel);
    if (!path || !progressPath) return;
    this.#selected = step.id;
    const failure = shown.detail?.failures.steps.find((f) => f.id === step.id)?.reason;
    const text = [step.title, failure].filter(Boolean).join('\n');
    this.deps.focus.set({ path, progressPath, id: step.id, title: step.title, text });
    this.#paint(this.#board);
  }

  #stepAction(shown: Shown | undefined, step: StepSummary, action: StepAction): void {
    if (shown?.detail) this.#act((ctx) => runStepAction(ctx, step, action), shown);
  }

  #planAction(shown: Shown | undefined, action: PlanAction): void {
    if (shown?.detail) this.#act((ctx) => runPlanAction(ctx, action), shown);
  }

  /** Runs one action at a time (buttons disabled meanwhile), then reads the plans again whatever happened. */
  #act(run: (ctx: Parameters<typeof runStepAction>[0]) => Promise<void>, shown: Shown): void {
    if (this.#busy || !shown.detail) return;
    this.#busy = true;
    this.#paint(this.#board);
    const ctx = { app: this.app, actor: this.deps.actor(), handle: shown.handle, detail: shown.detail };
    this.#action = run(ctx).finally(() => {
      this.#busy = false;
      this.#requestRender();
    });
  }

  async #openFile(shown: Shown | undefined): Promise<void> {
    const path = shown && this.deps.vaultPath(shown.handle.files.planLabel);
    if (path) await this.deps.open(path);
  }
}

/** A service's reason (written to follow "AgentM: ") as a sentence of its own. */
function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

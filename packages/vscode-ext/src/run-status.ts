import * as vscode from 'vscode';
import type { PlanSource } from './sources/types';

/** What the run item shows (the inspect command reports it). */
export interface RunStatusState {
  readonly visible: boolean;
  readonly text: string;
  readonly tooltip: string;
  /** The command a click runs, and its arguments. */
  readonly command: string | undefined;
  readonly arguments: readonly unknown[];
}

const HIDDEN: RunStatusState = { visible: false, text: '', tooltip: '', command: undefined, arguments: [] };

/** Who runs plans: the names running now, and an event when that changes. */
export interface RunningPlans {
  readonly running: readonly string[];
  readonly onDidChangeRunning: vscode.Event<void>;
}

/**
 * A status bar item shown only while a plan runs in this window: `AgentM: <plan> 2/5` (steps done of
 * all), updated as the PLAN file changes; a click opens the plan's progress log (where each step's
 * result and failure reason go).
 */
export class RunStatusItem implements vscode.Disposable {
  readonly #item: vscode.StatusBarItem;
  readonly #subscriptions: vscode.Disposable[];
  #state: RunStatusState = HIDDEN;
  #generation = 0;

  constructor(
    private readonly runs: RunningPlans,
    private readonly plans: PlanSource,
  ) {
    this.#item = vscode.window.createStatusBarItem('agentm.run', vscode.StatusBarAlignment.Left, 49);
    this.#item.name = 'AgentM plan run';
    this.#subscriptions = [
      runs.onDidChangeRunning(() => void this.refresh()),
      plans.onDidChange(() => void this.refresh()),
    ];
  }

  get state(): RunStatusState {
    return this.#state;
  }

  /** Reads the running plans' steps again; a newer refresh wins over an older one still reading. */
  async refresh(): Promise<void> {
    const generation = ++this.#generation;
    const running = this.runs.running;
    if (running.length === 0) return this.#show(HIDDEN);
    const state = await this.plans.read().catch(() => undefined);
    if (generation !== this.#generation) return;
    const name = running[0]!;
    const plan = state?.kind === 'ready' ? state.plans.find((p) => p.name === name) : undefined;
    const done = plan?.steps.filter((s) => s.status === 'done').length ?? 0;
    const total = plan?.steps.length ?? 0;
    const more = running.length > 1 ? ` +${running.length - 1}` : '';
    this.#show({
      visible: true,
      text: `$(sync~spin) AgentM: ${name} ${done}/${total}${more}`,
      tooltip:
        `Plan '${name}' is running: ${done} of ${total} steps done.` +
        (more ? ` Also running: ${running.slice(1).join(', ')}.` : '') +
        ' Click to show its progress log.',
      command: 'agentm.openProgress',
      arguments: [name],
    });
  }

  #show(state: RunStatusState): void {
    this.#state = state;
    if (!state.visible) {
      this.#item.hide();
      return;
    }
    this.#item.text = state.text;
    this.#item.tooltip = state.tooltip;
    this.#item.command = { command: state.command!, title: 'Show the progress log', arguments: [...state.arguments] };
    this.#item.show();
  }

  dispose(): void {
    for (const s of this.#subscriptions) s.dispose();
    this.#item.dispose();
  }
}

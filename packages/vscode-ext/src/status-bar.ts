import * as vscode from 'vscode';
import type { LockStatus } from '@agentm/core';
import type { TroubleSink } from './funnel';
import type { StoragePreview } from './sources/types';

/** What the status bar item shows, in data (the inspect command hands this to tests). */
export interface StatusBarState {
  readonly text: string;
  readonly tooltip: string;
  readonly state: 'idle' | 'agentWriting' | 'trouble' | 'loading';
}

/** Pure: what to show for a backend preview, a lock status and any background trouble. */
export function statusBarState(preview: StoragePreview | undefined, lock: LockStatus | undefined, trouble: readonly string[]): StatusBarState {
  if (!preview) return { text: '$(loading~spin) AgentM', tooltip: 'AgentM: checking the storage backend…', state: 'loading' };
  const click = 'Click to run the storage doctor.';
  if (preview.status === 'fail' || trouble.length > 0) {
    const lines = [...(preview.status === 'fail' ? [preview.line] : []), ...trouble];
    return { text: `$(warning) AgentM: ${preview.protocol ?? 'no backend'}`, tooltip: `${lines.join('\n')}\n${click}`, state: 'trouble' };
  }
  if (lock?.present && !lock.stale && !lock.heldByThisProcess) {
    return { text: `$(sync~spin) AgentM: ${preview.protocol} — agent writing`, tooltip: `An agent holds the vault lock (${lock.lockDir}).\n${preview.line}\n${click}`, state: 'agentWriting' };
  }
  return { text: `$(database) AgentM: ${preview.protocol}`, tooltip: `${preview.line}\n${click}`, state: 'idle' };
}

/** The status bar item: selected backend, a spinning icon while an agent holds the vault lock, trouble. */
export class AgentMStatusBar implements TroubleSink, vscode.Disposable {
  readonly #item: vscode.StatusBarItem;
  #preview: StoragePreview | undefined;
  #lock: LockStatus | undefined;
  readonly #trouble = new Map<string, string>();
  #state: StatusBarState = statusBarState(undefined, undefined, []);

  constructor() {
    this.#item = vscode.window.createStatusBarItem('agentm.status', vscode.StatusBarAlignment.Left, 50);
    this.#item.name = 'AgentM storage';
    this.#item.command = 'agentm.doctor';
    this.#render();
    this.#item.show();
  }

  get state(): StatusBarState {
    return this.#state;
  }

  setPreview(preview: StoragePreview): void {
    this.#preview = preview;
    if (!preview.lockedStoreRoot) this.#lock = undefined;
    this.#render();
  }

  setLock(lock: LockStatus | undefined): void {
    this.#lock = lock;
    this.#render();
  }

  setTrouble(source: string, message: string | undefined): void {
    if (message === undefined) this.#trouble.delete(source);
    else this.#trouble.set(source, message);
    this.#render();
  }

  #render(): void {
    this.#state = statusBarState(this.#preview, this.#lock, [...this.#trouble.values()]);
    this.#item.text = this.#state.text;
    this.#item.tooltip = this.#state.tooltip;
    this.#item.backgroundColor = this.#state.state === 'trouble' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.#item.dispose();
  }
}

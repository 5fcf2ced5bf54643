import * as vscode from 'vscode';
import type { LockStatus } from '@agentm/core/write-protocol';
import type { TroubleSink } from './funnel';
import type { StorageState } from './sources/types';
import { statusBarState, type StatusBarState } from './status-text';

/** The status bar item: selected backend, a spinning icon while an agent holds the vault lock, trouble. */
export class AgentMStatusBar implements TroubleSink, vscode.Disposable {
  readonly #item: vscode.StatusBarItem;
  #storage: StorageState | undefined;
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

  setStorage(storage: StorageState): void {
    this.#storage = storage;
    if (!storage.lockedStoreRoot) this.#lock = undefined;
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
    this.#state = statusBarState(this.#storage, this.#lock, [...this.#trouble.values()]);
    this.#item.text = this.#state.text;
    this.#item.tooltip = this.#state.tooltip;
    this.#item.backgroundColor =
      this.#state.state === 'trouble' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.#item.dispose();
  }
}

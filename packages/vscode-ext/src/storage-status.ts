import * as vscode from 'vscode';
import type { ErrorFunnel } from './funnel';
import { LockWatch } from './lock-watch';
import type { Doctor } from './sources/types';
import type { AgentMStatusBar } from './status-bar';

/**
 * Keeps the status bar in step with the workspace's quick checks (storage; this editor against its
 * agents) and the lock: re-checks when `agentm.*` settings change, and (re)starts the lock watch when the locked store root moves.
 */
export class StorageStatus implements vscode.Disposable {
  #watch: LockWatch | undefined;
  #generation = 0;
  readonly #subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly doctor: Doctor,
    private readonly statusBar: AgentMStatusBar,
    private readonly funnel: ErrorFunnel,
  ) {
    this.#subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('agentm.vault')) void this.refresh();
      }),
    );
  }

  /** Re-reads the selection; background trouble goes to the status bar, never to a notification. */
  async refresh(): Promise<void> {
    const generation = ++this.#generation;
    const storage = await this.doctor.status();
    if (generation !== this.#generation) return; // a newer refresh won the race
    this.statusBar.setStorage(storage);
    const root = storage.lockedStoreRoot;
    if (this.#watch?.storeRoot === root) {
      await this.#watch?.refresh();
      return;
    }
    this.#watch?.dispose();
    this.#watch = undefined;
    this.funnel.background('lock watch', undefined);
    if (!root) return;
    const watch = new LockWatch(
      root,
      (status) => this.statusBar.setLock(status),
      (error) => this.funnel.background('lock watch', error),
    );
    this.#watch = watch;
    await watch.start();
  }

  dispose(): void {
    this.#watch?.dispose();
    for (const s of this.#subscriptions) s.dispose();
  }
}

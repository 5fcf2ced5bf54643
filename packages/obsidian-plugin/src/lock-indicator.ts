import { watch, type FSWatcher } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LockStatus } from '@agentm/core/write-protocol';

/** How the indicator follows the lock. */
export interface LockWatchOptions {
  /** A lock whose heartbeat is older than this is stale (its holder stopped): agentm's 10 s. */
  readonly staleMs: number;
  /** Where the OS gives no file events for the lock's folder: how often to look instead. */
  readonly fallbackPollMs: number;
}

/** File events arriving within this window are one look at the lock (an mkdir and its first heartbeat). */
const COALESCE_MS = 20;

/**
 * The status bar item that says an agent holds the vault lock. It follows the lock by file events on the
 * folder that holds the lock directory (an agent's mkdir, heartbeat and rmdir each arrive as one), and
 * looks again when a held lock would turn stale, so a holder that died stops showing; nothing runs while
 * nobody holds the lock. Where the OS cannot watch that folder it falls back to polling. Also switched
 * on at once when one of the plugin's own writes has to wait. Hidden when nobody else holds the lock.
 */
export class LockIndicator {
  #waiting = false;
  #status: LockStatus | undefined;
  #watcher: FSWatcher | undefined;
  #poll: number | undefined;
  #soon: number | undefined;
  #staleCheck: number | undefined;
  #generation = 0;
  #looks = 0;

  constructor(
    private readonly el: HTMLElement,
    private readonly inspect: () => Promise<LockStatus | undefined>,
    private readonly options: LockWatchOptions,
  ) {
    el.addClass('agentm-lock-status');
    this.#draw();
  }

  /**
   * Follows the lock directory `lockDir` from now on (instead of any earlier one), and looks at it once.
   * Creates the folder that holds it (`<lock root>/<hash>/`, where every writer creates it) so it can be
   * watched before the first lock.
   */
  async follow(lockDir: string): Promise<void> {
    this.stop();
    const generation = this.#generation;
    const folder = dirname(lockDir);
    try {
      await mkdir(folder, { recursive: true });
      if (generation !== this.#generation) return;
      this.#watcher = watch(folder, { persistent: false }, () => this.#lookSoon());
      this.#watcher.on('error', () => this.#fallBack());
    } catch {
      if (generation === this.#generation) this.#fallBack();
    }
    await this.refresh();
  }

  /** Stops following (unload, or before following another lock). */
  stop(): void {
    this.#generation++;
    this.#watcher?.close();
    this.#watcher = undefined;
    window.clearInterval(this.#poll);
    window.clearTimeout(this.#soon);
    window.clearTimeout(this.#staleCheck);
    this.#poll = this.#soon = this.#staleCheck = undefined;
  }

  /** One of the plugin's writes started or stopped waiting for the lock. */
  setWaiting(waiting: boolean, status?: LockStatus): void {
    this.#waiting = waiting;
    if (status) this.#status = status;
    this.#draw();
  }

  /** Looks at the lock now. */
  async refresh(): Promise<void> {
    const generation = this.#generation;
    this.#looks++;
    try {
      this.#status = await this.inspect();
    } catch {
      this.#status = undefined;
    }
    this.#draw();
    if (generation === this.#generation) this.#scheduleStaleCheck();
  }

  /** What the item says now (`""` when hidden). */
  get text(): string {
    return this.el.isShown() ? this.el.getText() : '';
  }

  /** How the lock is followed now, and how many times it has been looked at (for the doctor and benchmarks). */
  get following(): { readonly by: 'events' | 'polling' | 'nothing'; readonly looks: number } {
    const by = this.#watcher ? 'events' : this.#poll !== undefined ? 'polling' : 'nothing';
    return { by, looks: this.#looks };
  }

  #lookSoon(): void {
    if (this.#soon !== undefined) return;
    this.#soon = window.setTimeout(() => {
      this.#soon = undefined;
      void this.refresh();
    }, COALESCE_MS);
  }

  /** A held lock with a live heartbeat: look again when it would turn stale without one. */
  #scheduleStaleCheck(): void {
    window.clearTimeout(this.#staleCheck);
    this.#staleCheck = undefined;
    const s = this.#status;
    if (!s?.present || s.stale || s.heldByThisProcess || this.#poll !== undefined) return;
    const wait = Math.max(0, this.options.staleMs - (s.heartbeatAgeMs ?? 0)) + COALESCE_MS;
    this.#staleCheck = window.setTimeout(() => void this.refresh(), wait);
  }

  #fallBack(): void {
    this.#watcher?.close();
    this.#watcher = undefined;
    window.clearInterval(this.#poll);
    this.#poll = window.setInterval(() => void this.refresh(), this.options.fallbackPollMs);
  }

  #draw(): void {
    const s = this.#status;
    const agentHolds = s !== undefined && s.present && !s.stale && !s.heldByThisProcess;
    if (this.#waiting) this.el.setText('AgentM: waiting for an agent to finish writing…');
    else if (agentHolds) this.el.setText('AgentM: an agent is writing');
    else this.el.setText('');
    this.el.setAttr('aria-label', s ? `Vault lock: ${s.lockDir}` : null);
    this.el.toggle(this.#waiting || agentHolds);
  }
}

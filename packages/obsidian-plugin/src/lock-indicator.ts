import type { LockStatus } from '@agentm/core/protocol';

/**
 * The status bar item that says an agent holds the vault lock. Polled (one `stat` of the lock
 * directory) while the plugin runs; also switched on at once when one of the plugin's own writes has to
 * wait. Hidden when nobody else holds the lock.
 */
export class LockIndicator {
  #waiting = false;
  #status: LockStatus | undefined;

  constructor(
    private readonly el: HTMLElement,
    private readonly inspect: () => Promise<LockStatus | undefined>,
  ) {
    el.addClass('agentm-lock-status');
    this.#draw();
  }

  /** One of the plugin's writes started or stopped waiting for the lock. */
  setWaiting(waiting: boolean, status?: LockStatus): void {
    this.#waiting = waiting;
    if (status) this.#status = status;
    this.#draw();
  }

  /** Looks at the lock now. */
  async refresh(): Promise<void> {
    try {
      this.#status = await this.inspect();
    } catch {
      this.#status = undefined;
    }
    this.#draw();
  }

  /** What the item says now (`""` when hidden). */
  get text(): string {
    return this.el.isShown() ? this.el.getText() : '';
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

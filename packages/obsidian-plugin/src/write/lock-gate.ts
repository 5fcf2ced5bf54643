import { lockDirFor, withLockDir, type LockHold, type LockStatus } from '@agentm/core/write-protocol';

/** Told when a write starts waiting for another holder of the lock, and when it stops waiting. */
export type LockWaitListener = (waiting: boolean, status?: LockStatus) => void;

/**
 * The agentm lock of one memory root (DESIGN §5): `<lockRoot>/<sha256(realpath(memory root))>/lock`,
 * the directory every agent on the machine takes. Re-entrant within one async call chain, so a resolve
 * action can hold it around several writes that each take it too.
 */
export class LockGate {
  readonly lockDir: string;

  constructor(
    /** The absolute memory root on disk (the lock key). */
    readonly storeRoot: string,
    readonly lockRoot: string,
    private readonly timeoutMs: () => number,
    private readonly onWaitChange: LockWaitListener = () => undefined,
  ) {
    this.lockDir = lockDirFor(storeRoot, lockRoot);
  }

  /** Runs `fn` holding the lock; waits (bounded by the lock wait setting) while an agent holds it, then `LockTimeout`. */
  async run<T>(fn: (hold: LockHold) => Promise<T>): Promise<T> {
    let waiting = false;
    try {
      return await withLockDir(
        this.lockDir,
        (hold) => {
          if (waiting) {
            waiting = false;
            this.onWaitChange(false);
          }
          return fn(hold);
        },
        {
          timeoutMs: this.timeoutMs(),
          onWait: (status) => {
            waiting = true;
            this.onWaitChange(true, status);
          },
        },
      );
    } finally {
      if (waiting) this.onWaitChange(false);
    }
  }
}

import { AgentMError } from '../seam/errors.js';
import { shortHash } from './content-hash.js';

/** The vault lock stayed held by a live writer for the whole bounded wait. */
export class LockTimeout extends AgentMError {
  readonly lockDir: string;
  readonly timeoutMs: number;
  /** Age of the holder's last heartbeat when we gave up, or undefined if the lock vanished meanwhile. */
  readonly heartbeatAgeMs: number | undefined;

  constructor(lockDir: string, timeoutMs: number, heartbeatAgeMs: number | undefined, staleMs: number) {
    const age = heartbeatAgeMs === undefined ? 'unknown' : `${(heartbeatAgeMs / 1000).toFixed(2)} s`;
    super(
      `could not take the vault lock ${lockDir} within ${(timeoutMs / 1000).toFixed(2)} s: another writer holds it ` +
        `(last heartbeat ${age} ago; a lock is taken over once its heartbeat is older than ${(staleMs / 1000).toFixed(2)} s). ` +
        'Wait for the other agent to finish and retry; if no agent is running, the lock will go stale and be taken over.',
      { code: 'ELOCKTIMEOUT' },
    );
    this.lockDir = lockDir;
    this.timeoutMs = timeoutMs;
    this.heartbeatAgeMs = heartbeatAgeMs;
  }
}

/** Our lock was taken over while we held it (the heartbeat stopped for longer than the stale window). */
export class LockCompromisedError extends AgentMError {
  readonly lockDir: string;
  constructor(lockDir: string, cause?: unknown) {
    super(
      `the vault lock ${lockDir} was lost while held (its heartbeat could not be kept fresh, so another writer took it over); ` +
        'nothing was written. Retry the operation.',
      { code: 'ELOCKCOMPROMISED', cause },
    );
    this.lockDir = lockDir;
  }
}

/**
 * A compare-and-swap lost: the target's bytes are not the ones the writer read (or it appeared or
 * vanished). The foreign bytes are left intact; re-read and retry, or keep both versions.
 */
export class ConcurrentModificationError extends AgentMError {
  readonly file: string;
  /** The hash the writer expected, or null for "absent". */
  readonly expectedHash: string | null;
  /** The hash found, or null when the file is absent. */
  readonly actualHash: string | null;

  constructor(file: string, expectedHash: string | null, actualHash: string | null, detail?: string) {
    const describe = (hash: string | null) => (hash === null ? 'absent' : shortHash(hash));
    super(
      `${file} was modified concurrently: expected ${describe(expectedHash)}, found ${describe(actualHash)}` +
        `${detail ? ` (${detail})` : ''}. A writer outside the lock (a sync client, another device, an editor) changed it ` +
        'since it was read; nothing was overwritten. Re-read it and apply your change again, or save your version as a conflict copy.',
      { code: 'ECONFLICT' },
    );
    this.file = file;
    this.expectedHash = expectedHash;
    this.actualHash = actualHash;
  }
}

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

/**
 * Our lock was taken over while we held it: the process was paused (SIGSTOP, a sleeping laptop, a long
 * GC) for longer than the stale window, so a waiter judged it dead and took the directory over.
 */
export class LockCompromisedError extends AgentMError {
  readonly lockDir: string;
  constructor(lockDir: string, detail = 'another writer took it over', cause?: unknown) {
    super(
      `the vault lock ${lockDir} was lost while held (${detail}: its heartbeat went unrefreshed past the stale window, ` +
        'so a waiter presumed this process dead); nothing was written. Retry the operation.',
      { code: 'ELOCKCOMPROMISED', cause },
    );
    this.lockDir = lockDir;
  }
}

/**
 * The lock could not be taken because a directory on its path is not ours to write (another user's,
 * typically left by running agentm with sudo) or is read-only. Not contention: waiting cannot help.
 */
export class LockPermissionError extends AgentMError {
  readonly lockDir: string;
  /** The directory the operation was refused in. */
  readonly directory: string;
  constructor(lockDir: string, directory: string, fix: string, cause: NodeJS.ErrnoException) {
    super(
      `cannot take the lock ${lockDir}: ${cause.code === 'EROFS' ? 'read-only filesystem' : 'permission denied'} ` +
        `(${cause.code}) in ${directory}. ${fix}`,
      { code: 'ELOCKPERM', cause },
    );
    this.lockDir = lockDir;
    this.directory = directory;
  }
}

/** The lock directory could not be removed after the work under it finished (an I/O error, not absence). */
export class LockReleaseError extends AgentMError {
  readonly lockDir: string;
  constructor(lockDir: string, cause: NodeJS.ErrnoException) {
    super(
      `the write completed, but the lock ${lockDir} could not be removed: ${cause.code ?? ''} ${cause.message}. ` +
        'Other writers will take it over once its heartbeat is older than the stale window; if this repeats, check ' +
        'the disk holding it (an I/O error there can also affect your other files).',
      { code: 'ELOCKRELEASE', cause },
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

/** What an errno means to a person, for the messages below. */
function explainErrno(code: string | undefined): string {
  switch (code) {
    case 'ENOSPC':
      return 'no space left on the device; free some space and retry';
    case 'EDQUOT':
      return 'the disk quota is exhausted; free some space and retry';
    case 'EROFS':
      return 'the filesystem is read-only; remount it writable or write elsewhere';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied; check who owns the folder';
    case 'EIO':
      return 'an I/O error from the disk; check the disk (and its connection) before retrying';
    default:
      return 'retry, and check the disk if it repeats';
  }
}

/**
 * Writing a file failed before anything changed (the temp could not be made, written, synced or renamed
 * over the target): the old bytes are intact and no temp is left. `code` is the underlying errno code
 * (`ENOSPC`, `EIO`, …), so callers that test it keep working.
 */
export class FileWriteError extends AgentMError {
  readonly file: string;
  constructor(file: string, cause: NodeJS.ErrnoException, fix?: string) {
    super(
      `could not write ${file}: ${cause.code ?? 'error'}: ${fix ?? explainErrno(cause.code)}. Nothing was changed.`,
      {
        code: cause.code ?? 'EWRITE',
        cause,
      },
    );
    this.file = file;
  }
}

/**
 * The new bytes were renamed into place, but syncing the directory failed: the rename may not survive
 * a crash. Not acknowledged as a successful write.
 */
export class WriteNotDurableError extends AgentMError {
  readonly file: string;
  readonly directory: string;
  constructor(file: string, directory: string, cause: NodeJS.ErrnoException) {
    super(
      `${file} was replaced, but syncing its directory ${directory} failed (${cause.code ?? 'error'}): the new version ` +
        `may not be durable — a crash now could bring back the old one. ${explainErrno(cause.code)}.`,
      { code: cause.code ?? 'ENOTDURABLE', cause },
    );
    this.file = file;
    this.directory = directory;
  }
}

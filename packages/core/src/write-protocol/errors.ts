import { AgentMError, EXIT_WRITE_LANDED } from '../seam/errors.js';
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

/**
 * The work landed — the new bytes are in place and readers see them — but a step after it failed. Not
 * a failed write: repeating it would write a second time (exit code `EXIT_WRITE_LANDED`, 3). What to
 * do is in the message: check the disk, and go on from the new state.
 */
export class WriteLandedError extends AgentMError {
  override readonly exitCode: number = EXIT_WRITE_LANDED;
}

/** How a lock that could not be removed was left for the next writer. */
export type LockLeftAs = 'marked-stale' | 'left';

/**
 * The lock directory could not be removed after the work under it finished (an I/O error, not
 * absence), even after retrying. It was marked stale where that was possible, so the next writer takes
 * it over at once instead of waiting out the stale window.
 */
export class LockReleaseError extends WriteLandedError {
  readonly lockDir: string;
  readonly leftAs: LockLeftAs;
  constructor(lockDir: string, cause: NodeJS.ErrnoException, leftAs: LockLeftAs = 'left', attempts = 1) {
    const next =
      leftAs === 'marked-stale'
        ? 'It was marked stale, so the next writer takes it over at once.'
        : 'The next writer takes it over once its heartbeat is older than the stale window (10 s).';
    super(
      `the write completed — the new version is in place; do not repeat it — but the lock ${lockDir} could not be ` +
        `removed (${attempts} attempt(s)): ${cause.code ?? ''} ${cause.message}. ${next} Check the disk holding it ` +
        '(an I/O error there can also affect your other files).',
      { code: 'ELOCKRELEASE', cause },
    );
    this.lockDir = lockDir;
    this.leftAs = leftAs;
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
 * The new bytes were renamed into place, but syncing the directory failed: readers see the new version,
 * but the rename may not survive a crash. Not acknowledged as a durable write, and not a failed one.
 */
export class WriteNotDurableError extends WriteLandedError {
  readonly file: string;
  readonly directory: string;
  constructor(file: string, directory: string, cause: NodeJS.ErrnoException) {
    super(
      `${file} was replaced — the new version is in place; do not repeat the write — but syncing its directory ` +
        `${directory} failed (${cause.code ?? 'error'}): it may not be durable, a crash now could bring back the old ` +
        'one. Check the disk (and its connection) that holds it.',
      { code: 'ENOTDURABLE', cause },
    );
    this.file = file;
    this.directory = directory;
  }
}

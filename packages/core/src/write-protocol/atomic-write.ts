import { renameSync } from 'node:fs';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { AgentMError } from '../seam/errors.js';
import { FileWriteError, WriteNotDurableError } from './errors.js';
import { chownFixFor } from './ownership-fix.js';
import { nodeCrypto } from './content-hash.js';

/** How long a contended rename is retried (Windows reports a busy destination as EPERM/EBUSY/EACCES). */
export const RENAME_RETRY_MS = 2_000;
const RENAME_BACKOFF_START_MS = 1;
const RENAME_BACKOFF_MAX_MS = 50;
const RETRYABLE_RENAME_CODES = new Set(['EPERM', 'EBUSY', 'EACCES']);

/** Longest part of the target name kept in a temp name, so the temp never exceeds NAME_MAX (255). */
const TEMP_STEM_MAX = 200;

export interface AtomicWriteOptions {
  /** fsync the file before the rename and the directory after it (default true). */
  readonly fsync?: boolean;
  /** Runs once after the temp file is durable, before the rename. Throwing aborts the write. */
  readonly beforeRename?: () => Promise<void> | void;
  /**
   * Runs synchronously immediately before each rename attempt, with nothing able to interleave
   * between it and the rename. The CAS re-check lives here, so the window between "checked" and
   * "replaced" is as short as the filesystem allows. Throwing aborts the write and removes the temp.
   */
  readonly verifyBeforeRename?: () => void;
}

/**
 * A temp name beside the target: `.<name>.<pid>.<random>.tmp`. Dot-prefixed so Obsidian and Obsidian
 * Sync ignore it; per-writer unique so concurrent writers of one target never share a temp (a fixed
 * `<name>.tmp` made concurrent agentm writers fail).
 */
export function tempNameFor(name: string): string {
  return `.${name.slice(0, TEMP_STEM_MAX)}.${process.pid}.${nodeCrypto().randomBytes(8).toString('hex')}.tmp`;
}

const OUR_TEMP = /^\..+\.(\d+)\.[0-9a-f]{16}\.tmp$/;
const AGENTM_PY_TEMP = /^.+\.(\d+)\.[0-9a-f]{32}\.tmp$/;

/** Whether a directory entry is an in-flight temp of ours or of a Python agentm writer. Never listed. */
export function isTempName(name: string): boolean {
  return OUR_TEMP.test(name) || AGENTM_PY_TEMP.test(name);
}

/** The pid of the writer that made a temp (from its name), or undefined when `name` is no temp of ours or agentm's. */
export function tempWriterPid(name: string): number | undefined {
  const match = OUR_TEMP.exec(name) ?? AGENTM_PY_TEMP.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** A durable temp file beside its target, ready to be renamed over it. */
export interface PreparedWrite {
  readonly path: string;
  readonly temp: string;
  readonly durable: boolean;
}

/**
 * What an atomic write writes: text (UTF-8), bytes, or chunks of bytes written one after the other
 * (taken from the iterable as they are written: a generator's chunks need not all exist at once).
 */
export type WriteContent = string | Uint8Array | Iterable<Uint8Array>;

/**
 * First half of an atomic write: creates the parents and writes `content` to a fresh temp beside
 * `path` (mode 0666 minus umask unless `mode` says otherwise), fsynced. Nothing visible changes yet; a
 * failure removes the temp. A file holding secrets passes `mode: 0o600`: the temp is created with it,
 * so the secret never sits in a file others can read, not even between the write and a chmod.
 */
export async function prepareWrite(
  path: string,
  content: WriteContent,
  options: Pick<AtomicWriteOptions, 'fsync'> & { readonly mode?: number } = {},
): Promise<PreparedWrite> {
  const durable = options.fsync !== false;
  const dir = dirname(path);
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw namingTheFile(path, error);
  }
  const temp = join(dir, tempNameFor(basename(path)));
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', options.mode ?? 0o666);
    if (typeof content === 'string') await handle.writeFile(Buffer.from(content, 'utf8'));
    // ArrayBuffer.isView, not instanceof: a test environment (happy-dom) may bring its own Uint8Array.
    else if (ArrayBuffer.isView(content)) await handle.writeFile(content);
    // Chunks (a large index snapshot) are written in turn: no buffer holding them all at once.
    else for (const chunk of content) await handle.writeFile(chunk);
    if (durable) await handle.sync();
    await handle.close();
    handle = undefined;
    return { path, temp, durable };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await discardWrite({ path, temp, durable });
    throw namingTheFile(path, error);
  }
}

/** An errno error from the filesystem becomes a `FileWriteError` naming the target; our own errors pass. */
function namingTheFile(path: string, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof AgentMError || typeof code !== 'string' || !/^E[A-Z]+$/.test(code)) return error;
  const fix =
    code === 'EACCES' || code === 'EPERM'
      ? `permission denied; if the folder belongs to another user (after running agentm with sudo), take it back with: ${chownFixFor(dirname(path))}`
      : undefined;
  return new FileWriteError(path, error as NodeJS.ErrnoException, fix);
}

/**
 * Second half: `verify` (synchronously), then rename the temp over the target, retrying a contended
 * rename for up to 2 s. The rename is synchronous on purpose: verification and rename run back to
 * back, so no other callback of this process can slip in between. On failure the temp is removed and
 * the target is untouched. Call `syncDirectory` afterwards to make the rename itself durable.
 */
export async function commitWrite(prepared: PreparedWrite, verify?: () => void): Promise<void> {
  const deadline = Date.now() + RENAME_RETRY_MS;
  let backoff = RENAME_BACKOFF_START_MS;
  try {
    for (;;) {
      verify?.();
      try {
        renameSync(prepared.temp, prepared.path);
        return;
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? '';
        if (!RETRYABLE_RENAME_CODES.has(code) || Date.now() >= deadline) throw error;
        await sleep(Math.min(backoff, Math.max(0, deadline - Date.now())));
        backoff = Math.min(backoff * 2, RENAME_BACKOFF_MAX_MS);
      }
    }
  } catch (error) {
    await discardWrite(prepared);
    throw namingTheFile(prepared.path, error);
  }
}

/** Removes a prepared temp that will not be committed. Never throws. */
export async function discardWrite(prepared: PreparedWrite): Promise<void> {
  await rm(prepared.temp, { force: true }).catch(() => undefined);
}

/**
 * Writes `content` to `path` so that a reader (or a crash) only ever sees the old bytes or the new
 * bytes: temp in the same directory, write, fsync, rename over the target, fsync the directory.
 * Parents are created. Returns `path` as given (agentm's `atomic_write` returns the path written). On
 * any failure the temp is removed and the error rethrown; the target is untouched.
 */
export async function atomicWrite(
  path: string,
  content: WriteContent,
  options: AtomicWriteOptions = {},
): Promise<string> {
  const prepared = await prepareWrite(path, content, options);
  try {
    await options.beforeRename?.();
  } catch (error) {
    await discardWrite(prepared);
    throw error;
  }
  await commitWrite(prepared, options.verifyBeforeRename);
  if (prepared.durable) await syncDirectory(dirname(path), path);
  return path;
}

/** fsync errors that mean "this directory cannot be synced here", not "the disk failed". */
const SYNC_UNSUPPORTED = new Set(['EINVAL', 'ENOTSUP', 'EOPNOTSUPP', 'EISDIR', 'EBADF']);

/**
 * Makes a rename in `dir` durable (fsync of the directory). Where a directory cannot be opened or synced
 * at all (Windows; EINVAL on some network filesystems) it is skipped: the data itself is already
 * fsynced. Any other failure of the sync — EIO above all — is a `WriteNotDurableError` naming `file`:
 * the rename happened but may not survive a crash, so the write is not acknowledged.
 */
export async function syncDirectory(dir: string, file: string = dir): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
  } catch {
    return; // EISDIR/EPERM on Windows; a directory we may not read: nothing to sync through
  }
  try {
    await handle.sync();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    const unsupported = SYNC_UNSUPPORTED.has(code) || (process.platform === 'win32' && code === 'EPERM');
    if (!unsupported) throw new WriteNotDurableError(file, dir, error as NodeJS.ErrnoException);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

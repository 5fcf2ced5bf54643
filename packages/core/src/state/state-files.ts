import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { NotFoundError } from '../seam/errors.js';
import { isTempName } from '../write-protocol/atomic-write.js';
import { casWriteFile } from '../write-protocol/cas-write.js';
import { contentHash } from '../write-protocol/content-hash.js';
import { defaultLockRoot, withVaultLock } from '../write-protocol/vault-lock.js';
import type { ProjectResolution } from '../routing/resolve-project.js';
import { InvalidStateFileNameError } from './errors.js';
import { assertStateFileName } from './plan-names.js';
import { stateFilePath, stateLocation } from './state-location.js';

/** The harness state directory as a path to show: `<store root>/<project>/_harness` or `<repo>/.harness`. */
export async function harnessStateDir(resolution: ProjectResolution): Promise<string> {
  const location = await stateLocation(resolution);
  return location.kind === 'backend' ? location.path : location.dir;
}

/** A state file's text and the hash of its bytes (`null` when absent, with content `""`). */
export interface StateFileRead {
  readonly content: string;
  readonly hash: string | null;
  /** The file's path, as shown to people. */
  readonly path: string;
}

/**
 * Reads a state file through its routed location, byte for byte (no newline translation on either
 * route). Absent → content `""`, hash `null`. The name must be one safe segment.
 */
export async function readStateFileWithHash(resolution: ProjectResolution, fileName: string): Promise<StateFileRead> {
  assertStateFileName(fileName);
  const location = await stateLocation(resolution);
  if (location.kind === 'backend') {
    const path = stateFilePath(location, fileName);
    try {
      const content = await location.backend.read(location.dir.child(fileName));
      return { content, hash: contentHash(content), path };
    } catch (error) {
      if (error instanceof NotFoundError) return { content: '', hash: null, path };
      throw error;
    }
  }
  const path = join(location.dir, fileName);
  try {
    const bytes = await readFile(path);
    return { content: bytes.toString('utf8'), hash: contentHash(bytes), path };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { content: '', hash: null, path };
    throw error;
  }
}

/** A state file's text; `""` when absent. */
export async function readStateFile(resolution: ProjectResolution, fileName: string): Promise<string> {
  return (await readStateFileWithHash(resolution, fileName)).content;
}

export interface StateWriteOptions {
  /** CAS: the hash read (`readStateFileWithHash`), `null` for "must still be absent", omitted for none. */
  readonly expectHash?: string | null;
}

/**
 * Writes a state file through its routed location and returns its path. Synced backend: the
 * backend's write (vault lock + CAS + atomic rename). Repo-local: the same protocol with the lock keyed
 * on the `.harness` directory, so two processes on one repo exclude each other like vault writers do.
 * A stale `expectHash` throws `ConcurrentModificationError` and leaves the file as it was.
 */
export async function writeStateFile(
  resolution: ProjectResolution,
  fileName: string,
  content: string,
  options: StateWriteOptions = {},
): Promise<string> {
  assertStateFileName(fileName);
  if (isTempName(fileName))
    throw new InvalidStateFileNameError(
      fileName,
      "it has the form of a writer's temp file (.<name>.<pid>.<random>.tmp), which listings and readers hide; choose another name",
    );
  const location = await stateLocation(resolution);
  const expect = options.expectHash === undefined ? {} : { expectHash: options.expectHash };
  if (location.kind === 'backend') {
    await location.backend.write(location.dir.child(fileName), content, expect);
    return stateFilePath(location, fileName);
  }
  const path = join(location.dir, fileName);
  const { host } = resolution;
  const lockRoot = defaultLockRoot(host.env as NodeJS.ProcessEnv, host.home);
  await casWriteFile(path, content, {
    ...expect,
    label: `.harness/${fileName}`,
    critical: (commit) => withVaultLock(location.dir, commit, { lockRoot }),
  });
  return path;
}

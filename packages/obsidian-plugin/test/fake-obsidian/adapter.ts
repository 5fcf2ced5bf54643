import { constants } from 'node:fs';
import {
  appendFile,
  copyFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DataWriteOptions, FileSystemAdapter as RealFileSystemAdapter, ListedFiles, Stat } from 'obsidian';

function isRootPath(path: string): boolean {
  return path === '' || path === '/';
}

function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

/**
 * The desktop DataAdapter over a real directory: every call is plain Node fs on `<base>/<path>`,
 * sees hidden (dot) files, and does not tell the Vault (the app learns about adapter writes through
 * its file watcher; here, `Vault.rescan()`). Strict where the real one is unspecified: writes and
 * renames need an existing parent folder, and renames and copies refuse an existing destination.
 */
export class FileSystemAdapter implements RealFileSystemAdapter {
  readonly #base: string;

  constructor(basePath: string) {
    this.#base = basePath;
  }

  getName(): string {
    return basename(this.#base);
  }

  getBasePath(): string {
    return this.#base;
  }

  getFullPath(normalizedPath: string): string {
    return isRootPath(normalizedPath) ? this.#base : join(this.#base, normalizedPath);
  }

  getFilePath(normalizedPath: string): string {
    return pathToFileURL(this.getFullPath(normalizedPath)).href;
  }

  getResourcePath(normalizedPath: string): string {
    return `app://local${this.getFullPath(normalizedPath)}`;
  }

  async exists(normalizedPath: string, _sensitive?: boolean): Promise<boolean> {
    return (await this.stat(normalizedPath)) !== null;
  }

  async stat(normalizedPath: string): Promise<Stat | null> {
    try {
      const st = await stat(this.getFullPath(normalizedPath));
      return {
        type: st.isDirectory() ? 'folder' : 'file',
        ctime: st.birthtimeMs || st.ctimeMs,
        mtime: st.mtimeMs,
        size: st.size,
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
        return null;
      throw error;
    }
  }

  async list(normalizedPath: string): Promise<ListedFiles> {
    const entries = await readdir(this.getFullPath(normalizedPath), { withFileTypes: true });
    const prefix = isRootPath(normalizedPath) ? '' : `${normalizedPath}/`;
    const listed: ListedFiles = { files: [], folders: [] };
    for (const entry of entries) (entry.isDirectory() ? listed.folders : listed.files).push(prefix + entry.name);
    return listed;
  }

  async read(normalizedPath: string): Promise<string> {
    return readFile(this.getFullPath(normalizedPath), 'utf8');
  }

  async readBinary(normalizedPath: string): Promise<ArrayBuffer> {
    const bytes = await readFile(this.getFullPath(normalizedPath));
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async write(normalizedPath: string, data: string, options?: DataWriteOptions): Promise<void> {
    await writeFile(this.getFullPath(normalizedPath), data, 'utf8');
    await this.#applyTimes(normalizedPath, options);
  }

  async writeBinary(normalizedPath: string, data: ArrayBuffer, options?: DataWriteOptions): Promise<void> {
    await writeFile(this.getFullPath(normalizedPath), new Uint8Array(data));
    await this.#applyTimes(normalizedPath, options);
  }

  async append(normalizedPath: string, data: string, options?: DataWriteOptions): Promise<void> {
    await appendFile(this.getFullPath(normalizedPath), data, 'utf8');
    await this.#applyTimes(normalizedPath, options);
  }

  async appendBinary(normalizedPath: string, data: ArrayBuffer, options?: DataWriteOptions): Promise<void> {
    await appendFile(this.getFullPath(normalizedPath), new Uint8Array(data));
    await this.#applyTimes(normalizedPath, options);
  }

  async process(normalizedPath: string, fn: (data: string) => string, options?: DataWriteOptions): Promise<string> {
    const next = fn(await this.read(normalizedPath));
    await this.write(normalizedPath, next, options);
    return next;
  }

  async mkdir(normalizedPath: string): Promise<void> {
    await mkdir(this.getFullPath(normalizedPath), { recursive: true });
  }

  /** No system trash in a test process: reports failure so callers fall back to the vault's `.trash`. */
  async trashSystem(_normalizedPath: string): Promise<boolean> {
    return false;
  }

  /** Moves the file or folder into `<vault>/.trash/`, numbering the name when one is already there. */
  async trashLocal(normalizedPath: string): Promise<void> {
    await mkdir(join(this.#base, '.trash'), { recursive: true });
    const name = basename(normalizedPath);
    const dot = name.lastIndexOf('.');
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
    for (let n = 1; ; n++) {
      const candidate = join(this.#base, '.trash', n === 1 ? name : `${stem} ${n}${ext}`);
      if ((await stat(candidate).catch(() => null)) === null) {
        await rename(this.getFullPath(normalizedPath), candidate);
        return;
      }
    }
  }

  async rmdir(normalizedPath: string, recursive: boolean): Promise<void> {
    if (recursive) await rm(this.getFullPath(normalizedPath), { recursive: true });
    else await rmdir(this.getFullPath(normalizedPath));
  }

  async remove(normalizedPath: string): Promise<void> {
    await unlink(this.getFullPath(normalizedPath));
  }

  async rename(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    if (normalizedPath !== normalizedNewPath && (await this.exists(normalizedNewPath))) {
      throw errnoError('EEXIST', 'Destination file already exists!');
    }
    await rename(this.getFullPath(normalizedPath), this.getFullPath(normalizedNewPath));
  }

  async copy(normalizedPath: string, normalizedNewPath: string): Promise<void> {
    await copyFile(this.getFullPath(normalizedPath), this.getFullPath(normalizedNewPath), constants.COPYFILE_EXCL);
  }

  async #applyTimes(normalizedPath: string, options?: DataWriteOptions): Promise<void> {
    if (options?.mtime === undefined && options?.ctime === undefined) return;
    const now = Date.now();
    await utimes(this.getFullPath(normalizedPath), new Date(now), new Date(options.mtime ?? now));
  }
}

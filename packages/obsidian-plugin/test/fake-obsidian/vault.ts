import { stat as fsStat } from 'node:fs/promises';
import type {
  DataWriteOptions,
  TAbstractFile as RealTAbstractFile,
  TFile as RealTFile,
  TFolder as RealTFolder,
  Vault as RealVault,
} from 'obsidian';
import type { FileSystemAdapter } from './adapter.js';
import { Events, type EventRef } from './events.js';
import { placeFile, TAbstractFile, TFile, TFolder } from './files.js';

interface DiskStamp {
  readonly mtimeMs: number;
  readonly ctimeMs: number;
  readonly size: number;
}

function isHidden(path: string): boolean {
  return path.split('/').some((segment) => segment.startsWith('.'));
}

function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '/' : path.slice(0, slash);
}

function pathError(message: string): Error {
  return new Error(message);
}

/**
 * Obsidian's Vault over the fake adapter. It indexes every non-hidden file and folder (a path segment
 * starting with `.` is hidden, as `.obsidian` and `.trash` are), fires `create`/`modify`/`delete`/`rename`
 * for changes made through it, and learns about changes made on disk by anyone else (other processes,
 * `adapter` calls, Node fs) only when `rescan()` runs: the test's stand-in for the app's file watcher,
 * called explicitly so tests are deterministic. `cachedRead` may return stale text until then, like the app.
 */
export class Vault extends Events implements RealVault {
  adapter: FileSystemAdapter;
  configDir = '.obsidian';
  readonly #files = new Map<string, RealTAbstractFile>();
  readonly #stamps = new Map<string, DiskStamp>();
  readonly #cache = new Map<string, string>();
  readonly #root = new TFolder();

  constructor(adapter: FileSystemAdapter) {
    super();
    this.adapter = adapter;
    this.#root.vault = this;
    placeFile(this.#root, '/', null);
  }

  override on(
    name: 'create' | 'modify' | 'delete',
    callback: (file: RealTAbstractFile) => unknown,
    ctx?: unknown,
  ): EventRef;
  override on(name: 'rename', callback: (file: RealTAbstractFile, oldPath: string) => unknown, ctx?: unknown): EventRef;
  override on(name: string, callback: (...data: never[]) => unknown, ctx?: unknown): EventRef {
    return super.on(name, callback as (...data: unknown[]) => unknown, ctx);
  }

  getName(): string {
    return this.adapter.getName();
  }

  getRoot(): TFolder {
    return this.#root;
  }

  getAbstractFileByPath(path: string): RealTAbstractFile | null {
    if (path === '/' || path === '') return this.#root;
    return this.#files.get(path) ?? null;
  }

  getFileByPath(path: string): TFile | null {
    const file = this.getAbstractFileByPath(path);
    return file instanceof TFile ? file : null;
  }

  getFolderByPath(path: string): TFolder | null {
    const folder = this.getAbstractFileByPath(path);
    return folder instanceof TFolder ? folder : null;
  }

  getAllLoadedFiles(): RealTAbstractFile[] {
    return [this.#root, ...this.#files.values()];
  }

  getAllFolders(includeRoot = false): TFolder[] {
    return this.getAllLoadedFiles().filter((f): f is TFolder => f instanceof TFolder && (includeRoot || !f.isRoot()));
  }

  getFiles(): TFile[] {
    return [...this.#files.values()].filter((f): f is TFile => f instanceof TFile);
  }

  getMarkdownFiles(): TFile[] {
    return this.getFiles().filter((f) => f.extension === 'md');
  }

  async create(path: string, data: string, options?: DataWriteOptions): Promise<RealTFile> {
    if (this.getAbstractFileByPath(path) || (await this.adapter.exists(path))) throw pathError('File already exists.');
    if (!this.getFolderByPath(parentPath(path))) throw pathError(`Folder does not exist: ${parentPath(path)}`);
    await this.adapter.write(path, data, options);
    const file = await this.#add(path, false);
    this.#cache.set(path, data);
    this.trigger('create', file);
    return file as RealTFile;
  }

  async createFolder(path: string): Promise<RealTFolder> {
    if (this.getAbstractFileByPath(path)) throw pathError('Folder already exists.');
    await this.adapter.mkdir(path);
    const parts = path.split('/');
    let folder: RealTFolder = this.#root;
    for (let i = 1; i <= parts.length; i++) {
      const sub = parts.slice(0, i).join('/');
      const existing = this.getFolderByPath(sub);
      if (existing) folder = existing;
      else {
        folder = (await this.#add(sub, true)) as TFolder;
        this.trigger('create', folder);
      }
    }
    return folder;
  }

  async read(file: RealTFile): Promise<string> {
    const text = await this.adapter.read(file.path);
    this.#cache.set(file.path, text);
    return text;
  }

  async cachedRead(file: RealTFile): Promise<string> {
    return this.#cache.get(file.path) ?? this.read(file);
  }

  async readBinary(file: RealTFile): Promise<ArrayBuffer> {
    return this.adapter.readBinary(file.path);
  }

  async modify(file: RealTFile, data: string, options?: DataWriteOptions): Promise<void> {
    await this.adapter.write(file.path, data, options);
    await this.#written(file, data);
  }

  async append(file: RealTFile, data: string, options?: DataWriteOptions): Promise<void> {
    await this.adapter.append(file.path, data, options);
    await this.#written(file, await this.adapter.read(file.path));
  }

  async createBinary(path: string, data: ArrayBuffer, options?: DataWriteOptions): Promise<RealTFile> {
    if (this.getAbstractFileByPath(path) || (await this.adapter.exists(path))) throw pathError('File already exists.');
    await this.adapter.writeBinary(path, data, options);
    const file = await this.#add(path, false);
    this.trigger('create', file);
    return file as RealTFile;
  }

  async modifyBinary(file: RealTFile, data: ArrayBuffer, options?: DataWriteOptions): Promise<void> {
    await this.adapter.writeBinary(file.path, data, options);
    await this.#written(file, await this.adapter.read(file.path));
  }

  async appendBinary(file: RealTFile, data: ArrayBuffer, options?: DataWriteOptions): Promise<void> {
    await this.adapter.appendBinary(file.path, data, options);
    await this.#written(file, await this.adapter.read(file.path));
  }

  getResourcePath(file: RealTFile): string {
    return this.adapter.getResourcePath(file.path);
  }

  async copy<T extends RealTAbstractFile>(file: T, newPath: string): Promise<T> {
    if (!(file instanceof TFile)) throw new Error('The fake vault copies files only');
    return (await this.create(newPath, await this.read(file))) as unknown as T;
  }

  /** Reads, applies `fn` and writes back with nothing of the app's in between; `fn` throwing writes nothing. */
  async process(file: RealTFile, fn: (data: string) => string, options?: DataWriteOptions): Promise<string> {
    const next = fn(await this.adapter.read(file.path));
    await this.modify(file, next, options);
    return next;
  }

  async delete(file: RealTAbstractFile, force?: boolean): Promise<void> {
    if (file instanceof TFolder) await this.adapter.rmdir(file.path, force === true || file.children.length > 0);
    else await this.adapter.remove(file.path);
    this.#removeTree(file);
  }

  async trash(file: RealTAbstractFile, system: boolean): Promise<void> {
    if (!(system && (await this.adapter.trashSystem(file.path)))) await this.adapter.trashLocal(file.path);
    this.#removeTree(file);
  }

  async rename(file: RealTAbstractFile, newPath: string): Promise<void> {
    if (this.getAbstractFileByPath(newPath)) throw pathError('Destination file already exists!');
    const oldPath = file.path;
    await this.adapter.rename(oldPath, newPath);
    const moved = [file, ...this.#descendants(file)];
    for (const f of moved) {
      this.#files.delete(f.path);
      this.#stamps.delete(f.path);
      this.#cache.delete(f.path);
    }
    file.parent?.children.splice(file.parent.children.indexOf(file), 1);
    const parent = this.getFolderByPath(parentPath(newPath)) ?? this.#root;
    for (const f of moved) {
      const path = f === file ? newPath : newPath + f.path.slice(oldPath.length);
      placeFile(f as TAbstractFile, path, f === file ? parent : f.parent);
      this.#files.set(path, f);
      this.#stamps.set(path, await this.#stamp(path));
    }
    parent.children.push(file);
    this.trigger('rename', file, oldPath);
  }

  /**
   * The file watcher, run now: walks the directory and fires `create` for new files and folders,
   * `modify` for files whose mtime, ctime or size changed, and `delete` for vanished ones (children first).
   * A rename on disk arrives as delete + create.
   */
  async rescan(): Promise<void> {
    const seen = new Set<string>();
    await this.#walk('/', seen, true);
    const gone = [...this.#files.keys()].filter((p) => !seen.has(p)).sort((a, b) => b.length - a.length);
    for (const path of gone) {
      const file = this.#files.get(path);
      if (file) this.#removeTree(file);
    }
  }

  /** Startup indexing: like the app, fires `create` for every existing file (before layout ready). */
  async loadFromDisk(): Promise<void> {
    await this.rescan();
  }

  async #walk(dir: string, seen: Set<string>, fire: boolean): Promise<void> {
    const listed = await this.adapter.list(dir);
    for (const folder of listed.folders.sort()) {
      if (isHidden(folder)) continue;
      seen.add(folder);
      if (!this.#files.has(folder)) {
        const created = await this.#add(folder, true);
        if (fire) this.trigger('create', created);
      }
      await this.#walk(folder, seen, fire);
    }
    for (const path of listed.files.sort()) {
      if (isHidden(path)) continue;
      seen.add(path);
      const known = this.#files.get(path);
      if (!known) {
        const created = await this.#add(path, false);
        if (fire) this.trigger('create', created);
        continue;
      }
      const stamp = await this.#stamp(path);
      const before = this.#stamps.get(path);
      if (
        before &&
        (before.mtimeMs !== stamp.mtimeMs || before.ctimeMs !== stamp.ctimeMs || before.size !== stamp.size)
      ) {
        this.#stamps.set(path, stamp);
        this.#cache.delete(path);
        this.#setStat(known as RealTFile, stamp);
        if (fire) this.trigger('modify', known);
      }
    }
  }

  async #add(path: string, folder: boolean): Promise<RealTAbstractFile> {
    const file = folder ? new TFolder() : new TFile();
    file.vault = this;
    const parent = this.getFolderByPath(parentPath(path)) ?? this.#root;
    placeFile(file, path, parent);
    parent.children.push(file);
    this.#files.set(path, file);
    const stamp = await this.#stamp(path);
    this.#stamps.set(path, stamp);
    if (file instanceof TFile) this.#setStat(file, stamp);
    return file;
  }

  async #written(file: RealTFile, data: string): Promise<void> {
    const stamp = await this.#stamp(file.path);
    this.#stamps.set(file.path, stamp);
    this.#setStat(file, stamp);
    this.#cache.set(file.path, data);
    this.trigger('modify', file);
  }

  #removeTree(file: RealTAbstractFile): void {
    for (const child of this.#descendants(file).reverse()) this.#forget(child);
    this.#forget(file);
  }

  #forget(file: RealTAbstractFile): void {
    if (!this.#files.delete(file.path)) return;
    this.#stamps.delete(file.path);
    this.#cache.delete(file.path);
    const siblings = file.parent?.children;
    if (siblings && siblings.includes(file)) siblings.splice(siblings.indexOf(file), 1);
    this.trigger('delete', file);
  }

  #descendants(file: RealTAbstractFile): RealTAbstractFile[] {
    if (!(file instanceof TFolder)) return [];
    return file.children.flatMap((child) => [child, ...this.#descendants(child)]);
  }

  #setStat(file: RealTFile, stamp: DiskStamp): void {
    file.stat = { ctime: file.stat.ctime || stamp.ctimeMs, mtime: stamp.mtimeMs, size: stamp.size };
  }

  async #stamp(path: string): Promise<DiskStamp> {
    const st = await fsStat(this.adapter.getFullPath(path));
    return { mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, size: st.size };
  }
}

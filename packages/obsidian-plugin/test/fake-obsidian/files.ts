import type {
  FileStats,
  TAbstractFile as RealTAbstractFile,
  TFile as RealTFile,
  TFolder as RealTFolder,
  Vault as RealVault,
} from 'obsidian';

/** A file or folder the vault has indexed. Paths are vault-relative; the root folder's path is `/`. */
export abstract class TAbstractFile implements RealTAbstractFile {
  vault!: RealVault;
  path = '';
  name = '';
  parent: RealTFolder | null = null;
}

export class TFile extends TAbstractFile implements RealTFile {
  stat: FileStats = { ctime: 0, mtime: 0, size: 0 };
  basename = '';
  extension = '';
}

export class TFolder extends TAbstractFile implements RealTFolder {
  children: RealTAbstractFile[] = [];

  isRoot(): boolean {
    return this.path === '/';
  }
}

/** Sets `path`, `name`, and for files `basename`/`extension`, as the app derives them. */
export function placeFile(file: TAbstractFile, path: string, parent: RealTFolder | null): void {
  file.path = path;
  file.parent = parent;
  const slash = path.lastIndexOf('/');
  file.name = path === '/' ? '' : path.slice(slash + 1);
  if (file instanceof TFile) {
    const dot = file.name.lastIndexOf('.');
    file.basename = dot > 0 ? file.name.slice(0, dot) : file.name;
    file.extension = dot > 0 ? file.name.slice(dot + 1) : '';
  }
}

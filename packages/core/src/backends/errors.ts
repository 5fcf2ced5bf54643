import { AgentMError } from '../seam/errors.js';

/** A read or write whose real path would leave the store root through a symlink. Nothing was read or written. */
export class PathEscapeError extends AgentMError {
  readonly locator: string;
  readonly realPath: string;
  readonly root: string;
  constructor(locator: string, realPath: string, root: string, operation: 'read' | 'write' = 'write') {
    super(
      `refusing to ${operation} ${JSON.stringify(locator)}: it resolves to ${realPath}, outside the store root ${root}, ` +
        'through a symbolic link. Replace the link with a real file or folder inside the store' +
        (operation === 'write' ? ', or write somewhere else.' : '.'),
      { code: 'EPATHESCAPE' },
    );
    this.locator = locator;
    this.realPath = realPath;
    this.root = root;
  }
}

/** A backend was constructed without what it needs (e.g. the vault backend without a root). */
export class BackendConfigError extends AgentMError {
  constructor(message: string) {
    super(message, { code: 'EBACKENDCONFIG' });
  }
}

/**
 * The error families of the storage seam. Callers catch by family, so the hierarchy mirrors agentm's:
 * a malformed key (caller bug) is never confused with absent data (a normal degrade).
 */

/** Base of every error AgentM throws on purpose. `code` is stable for programs; `message` is for people. */
export class AgentMError extends Error {
  readonly code: string;
  constructor(message: string, options?: { cause?: unknown; code?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options?.code ?? 'EAGENTM';
  }
}

/** A locator key that would leave its backend's namespace (`..`, backslash, NUL). A caller bug. */
export class InvalidLocatorError extends AgentMError {
  readonly key: string;
  constructor(key: string, reason: string) {
    super(`invalid storage locator ${JSON.stringify(key)}: ${reason}`, { code: 'EINVALIDLOCATOR' });
    this.key = key;
  }
}

/** `read`/`info` of a locator where nothing exists. Absence, not corruption. */
export class NotFoundError extends AgentMError {
  readonly locator: string;
  constructor(locator: string, detail = 'nothing is stored there') {
    super(`not found: ${locator === '' ? '(root)' : locator}: ${detail}`, { code: 'ENOENT' });
    this.locator = locator;
  }
}

/** A bad backend registration (empty or duplicate protocol name). A programming bug, surfaced at once. */
export class ProtocolError extends AgentMError {
  constructor(message: string) {
    super(message, { code: 'EPROTOCOL' });
  }
}

/** Tier roots that collide: a derived tier could overwrite the source it rebuilds from. */
export class TierLayoutError extends AgentMError {
  constructor(message: string) {
    super(message, { code: 'ETIERLAYOUT' });
  }
}

/**
 * The store's root directory existed and is gone (an unmounted drive, a moved or deleted vault): not
 * absence of one file. Nothing is written, so the old location is never re-created.
 */
export class StoreGoneError extends AgentMError {
  readonly root: string;
  constructor(root: string) {
    super(
      `the store ${root} is gone (unmounted, moved or deleted) while agentm was using it; nothing more was written ` +
        'there. Reconnect or restore it, then run the command again.',
      { code: 'ESTOREGONE' },
    );
    this.root = root;
  }
}
